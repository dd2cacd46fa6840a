//! Suppression comments: `// backend-lint: allow(lint, ..) -- reason` and
//! `// backend-lint: allow-file(lint, ..)`.
//!
//! They are comments, not attributes: rustc rejects `#[allow(unknown_tool::x)]`
//! (E0710). A directive at the end of a line covers findings that start on
//! that line; alone on its line (or in a run of comment lines) it covers the
//! next line of code directly below; `allow-file` covers the whole file.
//! A comment is a directive only when its text starts with `backend-lint:`
//! followed by a word and `(`; anything else mentioning the tool is prose.

use crate::model::diagnostic::Span;
use crate::model::facts::{Directive, Directives, Malformed, Named};
use crate::model::lint_id::LintId;
use crate::model::source::FileId;
use crate::syntax::lex::{self, Event};

pub const PREFIX: &str = "backend-lint:";

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
    let line_starts = crate::model::source::line_starts(text);
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
        Event::BlockComment(..) => {}
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
