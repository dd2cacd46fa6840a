//! Suppression comments: `// backend-lint: allow(lint, ..) -- reason` and
//! `// backend-lint: allow-file(lint, ..)`.
//!
//! They are comments, not attributes: rustc rejects `#[allow(unknown_tool::x)]`
//! (E0710). A directive at the end of a line covers findings that start on
//! that line; alone on its line (or in a run of comment lines) it covers the
//! next line of code directly below; `allow-file` covers the whole file.
//! A comment is a directive only when its text starts with `backend-lint:`
//! followed by a word and `(`; anything else mentioning the tool is prose.

use crate::config::{Config, Level};
use crate::diagnostic::{Diagnostic, Span};
use crate::lex::{self, Event};
use crate::lint_id::LintId;
use crate::lints::{invalid_suppression, unused_suppression};
use crate::source::{FileId, SourceFile};

pub const PREFIX: &str = "backend-lint:";

/// One directive as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Directive {
    /// The whole comment.
    pub span: Span,
    /// `allow-file` rather than `allow`.
    pub file_wide: bool,
    /// The 1-based line whose findings it covers (unused for `allow-file`);
    /// `None` when no code follows it directly.
    pub line: Option<usize>,
    /// The lints it names.
    pub lints: Vec<Named>,
}

/// A lint name in a directive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    /// As written (messages quote it).
    pub text: String,
    pub span: Span,
    /// The lint of that name, found as the directive is read; `None`: no
    /// lint has it.
    pub lint: Option<LintId>,
}

/// A comment that starts like a directive but cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed {
    pub span: Span,
    pub message: String,
}

/// The directives of a file, and the comments that failed to be ones.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Directives {
    pub directives: Vec<Directive>,
    pub malformed: Vec<Malformed>,
}

/// A `//` comment: where its text starts (after `//`) and ends, and whether
/// only whitespace precedes it on its line.
struct LineComment {
    start: usize,
    end: usize,
    line: usize,
    own_line: bool,
}

/// Find the directives of a file. Only `//` comments count (not `///` or
/// `//!` doc comments, not comment-like text in strings).
pub fn scan(file: FileId, text: &str) -> Directives {
    let mut out = Directives::default();
    // Cheap exit for the common case: the tool is never named.
    if memchr::memmem::find(text.as_bytes(), PREFIX.as_bytes()).is_none() {
        return out;
    }
    let comments = line_comments(text);
    let line_starts = crate::source::line_starts(text);
    let line_text = |line: usize| {
        let start = line_starts[line - 1];
        let end = line_starts.get(line).copied().unwrap_or(text.len());
        &text[start..end]
    };
    let below = first_code_lines(line_starts.len(), &comments);
    for c in &comments {
        let body = &text[c.start..c.end];
        let trimmed = body.trim_start();
        let Some(rest) = trimmed.strip_prefix(PREFIX) else {
            continue;
        };
        let rest_at = c.end - body.len() + (body.len() - trimmed.len()) + PREFIX.len();
        let span = Span {
            file,
            start: c.start - 2,
            end: c.end,
        };
        match parse(rest, rest_at, file) {
            Parsed::Prose => {}
            Parsed::Malformed(message) => out.malformed.push(Malformed { span, message }),
            Parsed::Directive { file_wide, lints } => {
                let line = if c.own_line {
                    // The next line that is not itself a comment line; a blank
                    // line in between means nothing follows directly.
                    let next = below[c.line + 1];
                    (next <= line_starts.len() && !line_text(next).trim().is_empty())
                        .then_some(next)
                } else {
                    Some(c.line)
                };
                out.directives.push(Directive {
                    span,
                    file_wide,
                    line,
                    lints,
                });
            }
        }
    }
    out
}

/// For each line `l` (from 1, and one past the last), the first line at or
/// below `l` that is not a comment alone on its line: found in one sweep up
/// the file, where each directive walking down its run of comment lines
/// cost the cube of the run (10,000 `allow-file` lines ran for minutes).
fn first_code_lines(lines: usize, comments: &[LineComment]) -> Vec<usize> {
    let mut comment_only = vec![false; lines + 2];
    for c in comments.iter().filter(|c| c.own_line) {
        comment_only[c.line] = true;
    }
    let mut below = vec![lines + 1; lines + 2];
    for line in (1..=lines).rev() {
        below[line] = if comment_only[line] {
            below[line + 1]
        } else {
            line
        };
    }
    below
}

enum Parsed {
    Prose,
    Malformed(String),
    Directive { file_wide: bool, lints: Vec<Named> },
}

/// What follows `backend-lint:`; `at` is its offset in the file.
fn parse(rest: &str, at: usize, file: FileId) -> Parsed {
    let lead = rest.len() - rest.trim_start().len();
    let rest = rest.trim_start();
    let word_len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .unwrap_or(rest.len());
    let (word, after) = rest.split_at(word_len);
    let file_wide = match word {
        "allow" => false,
        "allow-file" => true,
        // `backend-lint: alow(x)`: meant as a directive, misspelled.
        _ if !word.is_empty() && after.starts_with('(') => {
            return Parsed::Malformed(format!(
                "unknown directive `{word}`: write `allow(lint, ..)` or `allow-file(lint, ..)`"
            ));
        }
        _ => return Parsed::Prose,
    };
    let Some(inner) = after.strip_prefix('(') else {
        return Parsed::Malformed(format!(
            "expected `{word}(lint, ..)`: the lints to allow go in parentheses"
        ));
    };
    let Some(close) = inner.find(')') else {
        return Parsed::Malformed(format!("`{word}(` is not closed with `)`"));
    };
    let tail = inner[close + 1..].trim();
    if !tail.is_empty() && !tail.starts_with("--") {
        return Parsed::Malformed(format!(
            "unexpected `{tail}` after the directive: write a reason after `--`"
        ));
    }
    let list_at = at + lead + word_len + 1;
    let mut lints = Vec::new();
    let mut offset = 0;
    for part in inner[..close].split(',') {
        let name = part.trim();
        let start = list_at + offset + (part.len() - part.trim_start().len());
        offset += part.len() + 1;
        if name.is_empty() {
            continue;
        }
        lints.push(Named {
            text: name.to_string(),
            span: Span {
                file,
                start,
                end: start + name.len(),
            },
            lint: LintId::from_written(name),
        });
    }
    if lints.is_empty() {
        return Parsed::Malformed(format!("`{word}()` names no lint"));
    }
    Parsed::Directive { file_wide, lints }
}

/// The `//` comments of a Rust source text (not `///` and `//!` doc comments).
fn line_comments(text: &str) -> Vec<LineComment> {
    let mut out = Vec::new();
    let mut line = 1;
    let mut line_has_code = false;
    lex::scan(text, |event| match event {
        Event::Newline => {
            line += 1;
            line_has_code = false;
        }
        Event::Code(i) => line_has_code |= !text.as_bytes()[i].is_ascii_whitespace(),
        Event::Word(..) | Event::Literal(..) => line_has_code = true,
        Event::LineComment(start, end) => {
            let body = &text[start..end];
            // `///` and `//!` are documentation (but `////` is a comment).
            let doc = (body.starts_with('/') && !body.starts_with("//")) || body.starts_with('!');
            if !doc {
                out.push(LineComment {
                    start,
                    end,
                    line,
                    own_line: !line_has_code,
                });
            }
        }
    });
    out
}

/// Where a directive's lint applies: findings of that lint in that file
/// (`None`) or on that line of it.
type Reach = (FileId, Option<usize>, LintId);

/// The reach of one lint of a directive; `None` for a line directive with
/// no code below it, which covers nothing.
fn reach(file: FileId, dir: &Directive, lint: LintId) -> Option<Reach> {
    let line = if dir.file_wide { None } else { Some(dir.line?) };
    Some((file, line, lint))
}

/// The directives of a crate's files, looked up by reach: a finding is
/// checked against the two reaches that can cover it, not against every
/// directive (a file of 10,000 directives made that the square).
struct Cover<'a> {
    sources: std::collections::HashMap<FileId, &'a SourceFile>,
    reaches: std::collections::HashSet<Reach>,
}

impl<'a> Cover<'a> {
    fn new(files: &[(&'a SourceFile, FileId, &'a Directives)]) -> Self {
        Cover {
            sources: files.iter().map(|(source, id, _)| (*id, *source)).collect(),
            reaches: files
                .iter()
                .flat_map(|(_, id, d)| d.directives.iter().map(move |dir| (*id, dir)))
                .flat_map(|(id, dir)| {
                    dir.lints
                        .iter()
                        .filter_map(move |named| reach(id, dir, named.lint?))
                })
                .collect(),
        }
    }

    /// The reaches that cover `d` (none for a finding outside these files).
    fn covering(&self, d: &Diagnostic) -> impl Iterator<Item = Reach> + '_ {
        let (file, lint) = (d.span.file, d.lint);
        let line = self.sources.get(&file).map(|s| s.line(d.span.start));
        line.into_iter()
            .flat_map(|line| [None, Some(line)])
            .map(move |line| (file, line, lint))
            .filter(|reach| self.reaches.contains(reach))
    }
}

/// Apply the directives of a crate's files to its findings: drop those they
/// cover, then report directives that name no lint (`invalid_suppression`)
/// or cover nothing (`unused_suppression`), at the configured levels.
pub fn apply(
    diagnostics: &mut Vec<Diagnostic>,
    files: &[(&SourceFile, FileId, &Directives)],
    config: &Config,
) {
    let cover = Cover::new(files);
    let mut used: std::collections::HashSet<Reach> = std::collections::HashSet::new();
    diagnostics.retain(|d| {
        let mut covered = false;
        for reach in cover.covering(d) {
            used.insert(reach);
            covered = true;
        }
        !covered
    });

    let mut meta = Vec::new();
    for (_, file, directives) in files {
        for m in &directives.malformed {
            meta.push(invalid_suppression::malformed(m.span, &m.message));
        }
        for dir in &directives.directives {
            for Named { text, span, lint } in &dir.lints {
                match *lint {
                    None => meta.push(invalid_suppression::unknown_lint(*span, text)),
                    // A lint that did not run (allowed) says nothing about the directive.
                    Some(l) if config.level(l) == Level::Allow => {}
                    Some(l) if l == unused_suppression::LINT.id => {}
                    Some(l) if !reach(*file, dir, l).is_some_and(|r| used.contains(&r)) => {
                        meta.push(unused_suppression::diagnostic(*span, text, dir.file_wide))
                    }
                    Some(_) => {}
                }
            }
        }
    }
    // The meta findings obey levels and directives too (but cannot make a
    // directive used: `allow(unused_suppression)` on itself is not a loop).
    meta.retain(|d| cover.covering(d).next().is_none());
    crate::engine::apply_levels(&mut meta, config);
    diagnostics.extend(meta);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<(Option<usize>, bool, Vec<String>)> {
        scan(0, text)
            .directives
            .into_iter()
            .map(|d| {
                (
                    d.line,
                    d.file_wide,
                    d.lints.into_iter().map(|n| n.text).collect(),
                )
            })
            .collect()
    }

    #[test]
    fn trailing_and_own_line_directives_cover_their_line() {
        let text = "fn f() {\n    a(); // backend-lint: allow(x) -- why\n    // backend-lint: allow(y, z)\n    // more words\n    b();\n}\n";
        assert_eq!(
            lines(text),
            vec![
                (Some(2), false, vec!["x".to_string()]),
                (Some(5), false, vec!["y".to_string(), "z".to_string()]),
            ]
        );
    }

    #[test]
    fn a_blank_line_ends_the_reach_of_a_directive() {
        assert_eq!(
            lines("// backend-lint: allow(x)\n\nfn f() {}\n"),
            vec![(None, false, vec!["x".to_string()])]
        );
    }

    #[test]
    fn strings_docs_and_prose_are_not_directives() {
        let text = concat!(
            "/// backend-lint: allow(x)\n",
            "//! backend-lint: allow(x)\n",
            "const S: &str = \"// backend-lint: allow(x)\";\n",
            "const R: &str = r#\"// backend-lint: allow(x)\"#;\n",
            "const C: char = '\"'; // backend-lint is run in CI: it is fine\n",
            "fn f<'a>(x: &'a str) {} // see backend-lint: the docs\n",
            "/* // backend-lint: allow(x) */\n",
        );
        let found = scan(0, text);
        assert!(found.directives.is_empty(), "{found:?}");
        assert!(found.malformed.is_empty(), "{found:?}");
    }

    #[test]
    fn misspelled_directives_are_reported() {
        let found = scan(
            0,
            "// backend-lint: alow(x)\n// backend-lint: allow x\n// backend-lint: allow(x) because\n// backend-lint: allow()\n",
        );
        assert_eq!(found.malformed.len(), 4, "{found:?}");
        assert!(found.directives.is_empty());
    }

    #[test]
    fn name_spans_point_at_the_names() {
        let text = "f(); // backend-lint: allow( a ,b)\n";
        let d = &scan(0, text).directives[0];
        let names: Vec<&str> = d
            .lints
            .iter()
            .map(|n| &text[n.span.start..n.span.end])
            .collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(
            &text[d.span.start..d.span.end],
            "// backend-lint: allow( a ,b)"
        );
    }
}
