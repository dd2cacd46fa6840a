//! `--add-suppressions` (ruff's `--add-noqa`): the edits that write a
//! suppression comment for each finding of a file, so that a run after
//! them reports nothing of those lints. Pure: the runner writes the files.
//!
//! One comment per line with findings, above it, indented like it and
//! ending as it ends (`\n` or `\r\n`), listing every lint found there; when
//! a comment already covers the line, the lints are added to its list.
//! Findings of `unused_suppression` and `invalid_suppression` get none: they
//! are about a comment, which no other comment covers (`--fix` removes the
//! unused ones; a misspelled one needs a person).

use std::collections::{BTreeMap, BTreeSet};

use crate::model::diagnostic::{Diagnostic, Edit};
use crate::model::facts::Directive;
use crate::model::fix;
use crate::model::lint_id::LintId;
use crate::model::source::{FileId, SourceFile};
use crate::syntax::comments::{self, PREFIX};

/// The reason written in each new comment, for a person to replace.
pub const REASON: &str = "reason: TODO";

/// What to do to one file.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub edits: Vec<Edit>,
    /// New comments.
    pub added: usize,
    /// Comments that got more lints.
    pub extended: usize,
    /// Lines with findings that get no comment: the line starts inside a
    /// string or a block comment, where a comment would be text.
    pub not_covered: Vec<usize>,
}

/// Whether `--add-suppressions` covers findings of `lint`.
pub fn covers(lint: LintId) -> bool {
    !matches!(lint, LintId::UnusedSuppression | LintId::InvalidSuppression)
}

/// The plan for `source` (file `file`) and its findings (those of other
/// files are ignored).
pub fn plan<'a>(
    source: &SourceFile,
    file: FileId,
    findings: impl IntoIterator<Item = &'a Diagnostic>,
) -> Plan {
    let mut lines: BTreeMap<usize, BTreeSet<&'static str>> = BTreeMap::new();
    for d in findings {
        if d.span.file == file && covers(d.lint) {
            let line = source.line(d.span.start);
            lines.entry(line).or_default().insert(d.lint.name());
        }
    }
    let existing = comments::scan(file, &source.text).directives;
    let mut plan = Plan::default();
    // Each edit, and the line of the comment it inserts (`None`: it extends one).
    let mut planned: Vec<(Edit, Option<usize>)> = lines
        .into_iter()
        .map(|(line, lints)| {
            let covering = (existing.iter()).find(|d| !d.file_wide && d.line == Some(line));
            match covering {
                Some(dir) => (extend(file, dir, &lints), None),
                None => (new_comment(source, file, line, &lints), Some(line)),
            }
        })
        .collect();
    planned.sort();
    // A comment inserted where a line starts inside a string or a block
    // comment would be text, not a comment: the scanner, reading the new
    // text, must find each one as a directive, else it is left out.
    // Planned one per line, so they never overlap.
    let inserts: Vec<&Edit> = planned.iter().map(|(e, _)| e).collect();
    let Ok(new_text) = fix::apply(&source.text, &inserts) else {
        return Plan::default();
    };
    let found: BTreeSet<usize> = comments::scan(file, &new_text)
        .directives
        .iter()
        .map(|d| d.span.start)
        .collect();
    // Every edit inserts: where one lands in the new text is its offset
    // plus the length of those before it.
    let mut shift = 0;
    for (edit, line) in planned {
        let at = edit.span.start + shift;
        shift += edit.replacement.len();
        match line {
            None => plan.extended += 1,
            Some(line) => {
                let indent = edit.replacement.len() - edit.replacement.trim_start().len();
                if !found.contains(&(at + indent)) {
                    plan.not_covered.push(line);
                    continue;
                }
                plan.added += 1;
            }
        }
        plan.edits.push(edit);
    }
    plan
}

/// `allow(a)` covering the line becomes `allow(a, b, c)`.
fn extend(file: FileId, dir: &Directive, lints: &BTreeSet<&str>) -> Edit {
    let last = dir.lints.last().map_or(dir.span.end, |n| n.span.end);
    let names: String = lints
        .iter()
        .filter(|name| !dir.lints.iter().any(|n| n.text == **name))
        .map(|name| format!(", {name}"))
        .collect();
    Edit::insert(file, last, names)
}

/// `    // backend-lint: allow(a, b) -- reason: TODO` above `line`.
fn new_comment(source: &SourceFile, file: FileId, line: usize, lints: &BTreeSet<&str>) -> Edit {
    let text = &source.text;
    let start = source.text_start(line);
    let end = source.line_start(line + 1);
    let code = &text[start..end];
    let indent = &code[..code.len() - code.trim_start().len()];
    let names: Vec<&str> = lints.iter().copied().collect();
    Edit::insert(
        file,
        start,
        format!(
            "{indent}// {PREFIX} allow({}) -- {REASON}{}",
            names.join(", "),
            line_ending(text, end)
        ),
    )
}

/// How the line that ends at `end` ends; the last line, which may end with
/// nothing, ends as the file's first line does.
fn line_ending(text: &str, end: usize) -> &'static str {
    let ends = |s: &str| {
        if s.ends_with("\r\n") {
            Some("\r\n")
        } else if s.ends_with('\n') {
            Some("\n")
        } else {
            None
        }
    };
    let first = text.find('\n').map_or("", |i| &text[..=i]);
    ends(&text[..end]).or_else(|| ends(first)).unwrap_or("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::source::Span;

    /// The text once the plan for a finding of each `(lint, needle)` (at
    /// the needle's first occurrence) is applied, and the plan.
    fn added(text: &str, findings: &[(LintId, &str)]) -> (String, Plan) {
        let source = SourceFile::new("f.rs".into(), "f.rs".into(), text.into());
        let findings: Vec<Diagnostic> = findings
            .iter()
            .map(|(lint, needle)| {
                let start = text.find(needle).unwrap();
                let span = Span {
                    file: 0,
                    start,
                    end: start + needle.len(),
                };
                Diagnostic::new(*lint, span, "m")
            })
            .collect();
        let plan = plan(&source, 0, &findings);
        (
            fix::apply(text, &plan.edits.iter().collect::<Vec<_>>()).unwrap(),
            plan,
        )
    }

    const DUP: LintId = LintId::DuplicateRegistration;
    const RAW: LintId = LintId::UncanonicalizedPlatformComparison;

    #[test]
    fn one_comment_per_line_indented_and_ending_as_the_line() {
        let (text, plan) = added(
            "fn f() {\r\n    a == \"x\" && b(\"cuda\");\r\n}\r\n",
            &[(RAW, "a =="), (DUP, "\"cuda\""), (DUP, "b(")],
        );
        assert_eq!(
            text,
            "fn f() {\r\n    // backend-lint: allow(duplicate_registration, uncanonicalized_platform_comparison) -- reason: TODO\r\n    a == \"x\" && b(\"cuda\");\r\n}\r\n"
        );
        assert_eq!((plan.added, plan.extended), (1, 0));
    }

    #[test]
    fn lints_join_the_comment_that_covers_the_line() {
        let (text, plan) = added(
            "// backend-lint: allow(duplicate_registration) -- known\n// more\nb(\"cuda\") == a;\nc(); // backend-lint: allow(x)\n",
            &[(RAW, "b(\"cuda\") =="), (DUP, "b("), (RAW, "c()")],
        );
        assert_eq!(
            text,
            "// backend-lint: allow(duplicate_registration, uncanonicalized_platform_comparison) -- known\n// more\nb(\"cuda\") == a;\nc(); // backend-lint: allow(x, uncanonicalized_platform_comparison)\n"
        );
        assert_eq!((plan.added, plan.extended), (0, 2));
    }

    #[test]
    fn a_line_starting_in_a_string_gets_no_comment() {
        let (text, plan) = added("let s = \"a\nb\"; c == d;\n", &[(RAW, "c ==")]);
        assert_eq!(text, "let s = \"a\nb\"; c == d;\n");
        assert_eq!(plan.not_covered, [2]);
        assert_eq!(plan.added, 0);
    }

    #[test]
    fn the_byte_order_mark_stays_first_and_suppression_findings_get_none() {
        let (text, plan) = added(
            "\u{feff}a == b;\n// backend-lint: allow(nope)\nc();\n",
            &[(RAW, "a =="), (LintId::InvalidSuppression, "nope")],
        );
        assert_eq!(
            text,
            "\u{feff}// backend-lint: allow(uncanonicalized_platform_comparison) -- reason: TODO\na == b;\n// backend-lint: allow(nope)\nc();\n"
        );
        assert_eq!(plan.added, 1);
    }
}
