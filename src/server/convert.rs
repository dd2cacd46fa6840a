//! Between backend-lint's model and the protocol's: byte offsets and UTF-16
//! positions, paths and `file:` URIs, findings and LSP diagnostics.

use std::path::{Path, PathBuf};

use lsp_types as lsp;

use crate::model::diagnostic::{Diagnostic, Severity};
use crate::model::lint_id::LintId;
use crate::model::source::{SourceMap, Span, line_starts};

/// The name clients show as each diagnostic's source.
pub const SOURCE: &str = "backend-lint";

/// A text with its line starts: positions to offsets and back. LSP counts
/// a position's character in UTF-16 code units (the protocol's default,
/// the only encoding every client takes), lines at `\n`.
pub struct Lines<'t> {
    text: &'t str,
    starts: std::borrow::Cow<'t, [usize]>,
}

impl<'t> Lines<'t> {
    pub fn new(text: &'t str) -> Lines<'t> {
        Lines {
            text,
            starts: line_starts(text).into(),
        }
    }

    /// The position of byte `offset` (clamped to the text, moved back to a
    /// character boundary).
    pub fn position(&self, offset: usize) -> lsp::Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let character = self.text[start..offset].encode_utf16().count();
        lsp::Position::new(line as u32, character as u32)
    }

    pub fn range(&self, start: usize, end: usize) -> lsp::Range {
        lsp::Range::new(self.position(start), self.position(end))
    }

    /// The byte offset of `position`: past the end of its line (a column
    /// too far) is the line's end, past the last line the text's end, and
    /// inside a surrogate pair the character's start.
    pub fn offset(&self, position: lsp::Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return self.text.len();
        };
        let end = (self.starts.get(position.line as usize + 1).copied())
            .map_or(self.text.len(), |next| next - 1);
        let mut units = 0;
        for (at, c) in self.text[start..end].char_indices() {
            if units + c.len_utf16() > position.character as usize {
                return start + at;
            }
            units += c.len_utf16();
        }
        end
    }
}

/// The file a `file:` URI names; `None` for other schemes (an unsaved
/// buffer) and for what does not decode.
pub fn path_of(uri: &lsp::Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    let path = match rest.strip_prefix("localhost") {
        Some(path) => path,
        None => rest,
    };
    if !path.starts_with('/') {
        return None;
    }
    let bytes = percent_decode(path)?;
    let path = String::from_utf8(bytes).ok()?;
    // `file:///C:/x` on Windows: the path is `C:/x`.
    #[cfg(windows)]
    let path = path.strip_prefix('/').unwrap_or(&path).to_string();
    Some(PathBuf::from(path))
}

/// The `file:` URI of a path, every byte but the unreserved ones and `/`
/// percent-encoded.
pub fn uri_of(path: &Path) -> lsp::Uri {
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let text = path.to_string_lossy().replace('\\', "/");
    let mut out = String::from("file://");
    if !text.starts_with('/') {
        out.push('/');
    }
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out.parse().expect("a percent-encoded file URI parses")
}

fn percent_decode(s: &str) -> Option<Vec<u8>> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(out)
}

/// Where a lint's documentation is: the page SARIF's `helpUri` names.
pub fn docs_uri(lint: LintId) -> lsp::Uri {
    lint.docs_url()
        .parse()
        .expect("the documentation's URI parses")
}

/// The range of a span in its file, which `sources` holds.
pub fn range_in(sources: &SourceMap, lines: &mut LinesCache, span: Span) -> (lsp::Uri, lsp::Range) {
    let file = sources.get(span.file);
    let lines = lines.get(span.file, &file.text);
    (uri_of(&file.path), lines.range(span.start, span.end))
}

/// The line index of each file of one outcome, made once.
#[derive(Default)]
pub struct LinesCache {
    starts: std::collections::HashMap<u32, (std::sync::Arc<str>, Vec<usize>)>,
}

impl LinesCache {
    fn get(&mut self, file: u32, text: &std::sync::Arc<str>) -> Lines<'_> {
        let (text, starts) = self
            .starts
            .entry(file)
            .or_insert_with(|| (text.clone(), line_starts(text)));
        Lines {
            text,
            starts: starts.as_slice().into(),
        }
    }
}

/// A finding as an LSP diagnostic: severity from its level, the lint's
/// name as `code` with its docs, the help under the message, each label
/// as related information, and unused suppressions tagged unnecessary.
pub fn diagnostic(d: &Diagnostic, sources: &SourceMap, lines: &mut LinesCache) -> lsp::Diagnostic {
    let (_, range) = range_in(sources, lines, d.span);
    let mut message = d.message.clone();
    if let Some(help) = &d.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    let related: Vec<lsp::DiagnosticRelatedInformation> = (d.labels.iter())
        .map(|label| {
            let (uri, range) = range_in(sources, lines, label.span);
            lsp::DiagnosticRelatedInformation {
                location: lsp::Location::new(uri, range),
                message: label.message.clone(),
            }
        })
        .collect();
    lsp::Diagnostic {
        range,
        severity: Some(match d.severity {
            Severity::Error => lsp::DiagnosticSeverity::ERROR,
            Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        }),
        code: Some(lsp::NumberOrString::String(d.lint.name().to_string())),
        code_description: Some(lsp::CodeDescription {
            href: docs_uri(d.lint),
        }),
        source: Some(SOURCE.to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: (d.lint == LintId::UnusedSuppression).then(|| vec![lsp::DiagnosticTag::UNNECESSARY]),
        data: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        // "é" is 2 bytes and 1 unit, "日本" 6 bytes and 2 units, "😀" 4
        // bytes and 2 units (a surrogate pair).
        let text = "fn a() {}\nlet s = \"é日本😀\"; x\n";
        let lines = Lines::new(text);
        let x = text.rfind('x').unwrap();
        assert_eq!(lines.position(x), lsp::Position::new(1, 17));
        assert_eq!(lines.offset(lsp::Position::new(1, 17)), x);
        // Past the line's end: the line's end.
        assert_eq!(lines.offset(lsp::Position::new(0, 99)), 9);
        assert_eq!(lines.offset(lsp::Position::new(9, 0)), text.len());
        // Inside the surrogate pair: the emoji's start.
        let emoji = text.find('😀').unwrap();
        assert_eq!(lines.offset(lsp::Position::new(1, 13)), emoji);
    }

    #[test]
    fn file_uris_round_trip() {
        let path = Path::new("/tmp/a b/ü#1.rs");
        let uri = uri_of(path);
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%C3%BC%231.rs");
        assert_eq!(path_of(&uri).as_deref(), Some(path));
        let untitled: lsp::Uri = "untitled:Untitled-1".parse().unwrap();
        assert_eq!(path_of(&untitled), None);
    }
}
