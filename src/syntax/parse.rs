//! Parsing a file with `syn`, its offsets kept as the file's: a byte-order
//! mark and a shebang are blanked, edition 2015 names renamed in place, and
//! proc-macro2's positions turned into byte offsets through a line table.

use crate::model::diagnostic::Span;
use crate::model::source::{CharMarks, FileId, line_starts};

/// Byte offsets of `proc-macro2` positions in one parsed text, from its
/// line starts. proc-macro2's own `Span::byte_range` walks the characters
/// from the nearest position it has cached (a map it grows), which cost as
/// much as the rest of the walk; here a position is found by a binary
/// search of the line and, on a line that is ASCII up to it, an addition.
pub struct LineTable<'t> {
    /// What was parsed: the file with a byte-order mark and a shebang
    /// blanked ([`parseable_text`]), whose lines and columns proc-macro2
    /// counts.
    text: std::borrow::Cow<'t, str>,
    starts: Vec<usize>,
    /// Made on the first position past the ASCII start of a line.
    marks: std::cell::OnceCell<CharMarks>,
}

impl<'t> LineTable<'t> {
    pub fn new(text: &'t str) -> LineTable<'t> {
        let text = parseable_text(text);
        let starts = line_starts(&text);
        LineTable {
            text,
            starts,
            marks: std::cell::OnceCell::new(),
        }
    }

    /// The byte offset of a line (from 1) and column (in characters).
    pub fn offset(&self, at: proc_macro2::LineColumn) -> usize {
        let Some(&start) = self.starts.get(at.line.wrapping_sub(1)) else {
            return self.text.len();
        };
        // Most code is ASCII: the first columns of a line are read directly,
        // a long line or one with other characters goes by the marks.
        let short = at.column <= 64;
        match self.text.as_bytes().get(start..start + at.column) {
            Some(prefix) if short && prefix.is_ascii() => start + at.column,
            _ => {
                let marks = self.marks.get_or_init(|| CharMarks::new(&self.text));
                let n = marks.chars_before(&self.text, start) + at.column;
                marks.byte_of_char(&self.text, n)
            }
        }
    }

    /// The byte range of a span.
    pub fn range(&self, span: proc_macro2::Span) -> std::ops::Range<usize> {
        self.offset(span.start())..self.offset(span.end())
    }
}

/// Converts `proc-macro2` spans of one parsed file into [`Span`]s.
///
/// `proc-macro2` (with `span-locations`) reports byte ranges relative to the
/// string that was parsed; [`parseable_text`] keeps that string byte-for-byte
/// aligned with the file, so no offset needs adjusting here.
#[derive(Clone, Copy)]
pub struct SpanConv {
    pub file: FileId,
}

impl SpanConv {
    pub fn span(&self, span: proc_macro2::Span) -> Span {
        let range = span.byte_range();
        Span {
            file: self.file,
            start: range.start,
            end: range.end,
        }
    }
}

/// `syn::parse_file` strips a byte-order mark and a shebang line before
/// parsing, which would shift every offset. Blank them out instead (same
/// byte length), so offsets in the parsed string are offsets in the file.
pub fn parseable_text(text: &str) -> std::borrow::Cow<'_, str> {
    let bom = text.starts_with('\u{feff}');
    let body = if bom { &text[3..] } else { text };
    let shebang_len = if body.starts_with("#!") && !body[2..].trim_start().starts_with('[') {
        body.find('\n').unwrap_or(body.len())
    } else {
        0
    };
    if !bom && shebang_len == 0 {
        return std::borrow::Cow::Borrowed(text);
    }
    let skip = if bom { 3 } else { 0 } + shebang_len;
    let mut out = String::with_capacity(text.len());
    out.extend(std::iter::repeat_n(' ', skip));
    out.push_str(&text[skip..]);
    std::borrow::Cow::Owned(out)
}

/// Parse a file as syn does, keeping offsets equal to the file's.
///
/// syn parses the 2018+ language. Edition 2015 code that rustc accepts may
/// use `async`, `await` and `try` as names (`fn try()`, `let await = ..`).
/// When a parse fails and the file uses one of them where the keyword cannot
/// stand, those uses are renamed in place to names of the same length and
/// the parse is tried again; if that fails too, the first error is reported.
///
/// Only the unit tests parse a whole tree; the per-file pass walks each item
/// as it is parsed (`parse_file_with`).
#[cfg(test)]
pub(crate) fn parse_file(text: &str) -> syn::Result<syn::File> {
    parse_file_with(text, |input| input.parse())
}

/// Parse a file as `parse_file` does, with `parser` reading the file's
/// tokens in place of `syn::File`'s own parser: the extraction walks each
/// item as soon as it is parsed and drops it, so the walk reads syntax that
/// is still in the cache and the file's tree is never held whole. `parser`
/// runs again, from the start, on the 2015-names retry.
pub fn parse_file_with<T>(
    text: &str,
    mut parser: impl FnMut(syn::parse::ParseStream) -> syn::Result<T>,
) -> syn::Result<T> {
    use syn::parse::Parser;
    // `parseable_text` has blanked a byte-order mark and a shebang line, the
    // two things `syn::parse_file` does before it parses `syn::File`.
    let parseable = parseable_text(text);
    let error = match (&mut parser).parse_str(&parseable) {
        Ok(parsed) => return Ok(parsed),
        Err(e) => e,
    };
    match rename_2015_names(&parseable) {
        Some(renamed) => parser.parse_str(&renamed).map_err(|_| error),
        None => Err(error),
    }
}

/// `async`, `await` and `try` used as names (not as the 2018 keywords:
/// `async fn`/`async move`/`async {`, `.await`, `try {`), each replaced by
/// a name of the same length (`try` -> `tr_`); `None` when there are none.
fn rename_2015_names(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let next_word = |from: usize| -> &str {
        let rest = text[from..].trim_start();
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if end == 0 {
            // One character, whatever its length (found by the fuzzer: `try\u{feff}`).
            rest.chars().next().map_or("", |c| &rest[..c.len_utf8()])
        } else {
            &rest[..end]
        }
    };
    let prev_char = |at: usize| text[..at].trim_end().chars().last();
    let mut renames = Vec::new();
    crate::syntax::lex::scan(text, |e| {
        let crate::syntax::lex::Event::Word(i, end) = e else {
            return;
        };
        let word = &text[i..end];
        if !matches!(word, "async" | "await" | "try") {
            return;
        }
        let keyword = match word {
            "async" => matches!(
                next_word(end),
                "fn" | "move" | "{" | "|" | "unsafe" | "closure"
            ),
            "await" => prev_char(i) == Some('.'),
            _ => matches!(next_word(end), "{" | "!"),
        };
        if !keyword {
            renames.push(end - 1);
        }
    });
    if renames.is_empty() {
        return None;
    }
    let mut out = bytes.to_vec();
    for at in renames {
        out[at] = b'_';
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::source::{LineCol, SourceFile};
    use std::path::PathBuf;
    use std::sync::Arc;

    #[test]
    fn edition_2015_names_parse_with_offsets_kept() {
        let text = "fn try() {}\nfn async(await: u8) -> u8 { let r = try!(g()); await }\n";
        let file = parse_file(text).expect("2015 names parse");
        assert_eq!(file.items.len(), 2);
        // Offsets are the file's: the second function starts where it does.
        let second = syn::spanned::Spanned::span(&file.items[1])
            .byte_range()
            .start;
        assert_eq!(second, text.find("fn async").unwrap());
        // 2018 keywords are left alone.
        let modern = "async fn f() { g().await; let x = async move { 1 }; }";
        assert!(parse_file(modern).is_ok());
        // What is broken stays broken, with the first error.
        let broken = "fn try( {";
        assert!(parse_file(broken).is_err());
        // A keyword followed by a character of several bytes (a fuzzer find).
        assert!(parse_file("try\u{feff}0&]").is_err());
    }

    #[test]
    fn line_col_counts_chars() {
        let f = SourceFile::new(
            PathBuf::from("x.rs"),
            "x.rs".into(),
            Arc::from("ab\néé x\n"),
        );
        assert_eq!(f.line_col(0), LineCol { line: 1, column: 1 });
        assert_eq!(f.line_col(3), LineCol { line: 2, column: 1 });
        assert_eq!(f.line_col(8), LineCol { line: 2, column: 4 });
        assert_eq!(f.line_text(2), "éé x");
        let bom = SourceFile::new(
            PathBuf::from("b.rs"),
            "b.rs".into(),
            Arc::from("\u{feff}fn f"),
        );
        assert_eq!(bom.line_col(3), LineCol { line: 1, column: 1 });
        assert_eq!(bom.line_col(6), LineCol { line: 1, column: 4 });
    }

    #[test]
    fn bom_and_shebang_keep_offsets() {
        let text = "\u{feff}#!/usr/bin/env run\nfn main() {}\n";
        let p = parseable_text(text);
        assert_eq!(p.len(), text.len());
        assert_eq!(
            &p[p.find("fn").unwrap()..],
            &text[text.find("fn").unwrap()..]
        );
        assert!(syn::parse_file(&p).is_ok());
        assert!(matches!(
            parseable_text("#![allow(x)]\n"),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}

#[cfg(test)]
mod line_table_tests {
    use super::*;
    use crate::model::source::{LineCol, SourceFile};
    use std::path::PathBuf;

    /// Every token's offsets, from the line table and from proc-macro2;
    /// `false` when the text does not tokenize.
    fn check(text: &str) -> bool {
        fn walk(ts: proc_macro2::TokenStream, lines: &LineTable, n: &mut usize) {
            for tt in ts {
                let span = tt.span();
                assert_eq!(lines.range(span), span.byte_range(), "{tt}");
                *n += 1;
                if let proc_macro2::TokenTree::Group(g) = tt {
                    assert_eq!(lines.range(g.span_open()), g.span_open().byte_range());
                    walk(g.stream(), lines, n);
                }
            }
        }
        let parsed = parseable_text(text);
        let Ok(tokens) = parsed.parse::<proc_macro2::TokenStream>() else {
            return false;
        };
        let mut n = 0;
        walk(tokens, &LineTable::new(text), &mut n);
        n > 5
    }

    #[test]
    fn offsets_are_proc_macro2_s() {
        assert!(check(
            "fn f() { let s = \"é\"; g(s) }\n// ünïcode ✓\nfn h() -> u8 { 1 }\n"
        ));
        assert!(check(
            "\u{feff}fn f() { let é = 'ß'; }\r\nconst X: &str = \"a\\\nb\";\r\n"
        ));
        assert!(check(
            "#!/usr/bin/env run-cargo-script ö\nfn main() { /* 🦀 */ x.y(\"日本\") }"
        ));
        let mut checked = 0;
        for fixture in ["lints/duplicate_registration", "examples/demo/src"] {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(fixture);
            for entry in std::fs::read_dir(dir).unwrap().flatten() {
                if let Ok(text) = std::fs::read_to_string(entry.path()) {
                    checked += usize::from(check(&text));
                }
            }
        }
        assert!(checked > 10);
    }

    /// Long lines of mixed characters, across many marks: the line table
    /// and the columns agree with counting every character.
    #[test]
    fn long_lines_are_read_through_the_marks() {
        let call = "g(\"é🦀\", 'ß', x); ";
        let text = format!(
            "fn f() {{ {} }}\nfn h() {{ {} }}\n",
            call.repeat(700),
            "a; ".repeat(3000)
        );
        assert!(text.len() > 3 * 4096, "over several character marks");
        assert!(check(&text));
        let file = SourceFile::new(PathBuf::new(), String::new(), text.as_str().into());
        for (at, _) in text.char_indices().step_by(97) {
            let line = file.line(at);
            let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let column = text[start..at].chars().count() + 1;
            assert_eq!(file.line_col(at), LineCol { line, column }, "at {at}");
        }
    }
}
