//! `unused_suppression`: a suppression comment that silences nothing.

use crate::lints::{Check, Lint};
use crate::model::diagnostic::{Applicability, Diagnostic, Edit, Fix, Span};
use crate::model::facts::Directive;
use crate::model::lint_id::LintId;
use crate::model::source::SourceFile;

pub const LINT: Lint = Lint {
    id: LintId::UnusedSuppression,
    summary: "a suppression comment silences no finding",
    docs: include_str!("../../lints/unused_suppression/README.md"),
    check: Check::Suppressions,
    fixes: true,
};

/// The `index`th name of `dir` silences nothing; `all_unused`: no name of
/// the comment silences anything, so the fix removes the whole comment.
pub fn diagnostic(
    source: &SourceFile,
    dir: &Directive,
    index: usize,
    all_unused: bool,
) -> Diagnostic {
    let named = &dir.lints[index];
    let name = &named.text;
    let (message, label) = if dir.file_wide {
        (
            format!("`allow-file({name})` silences nothing"),
            "the lint finds nothing in this file",
        )
    } else {
        (
            format!("`allow({name})` silences nothing"),
            "the lint finds nothing that starts on the line this covers",
        )
    };
    let fix = if all_unused {
        // The reason is the user's: a fix never deletes it.
        let applicability = match has_reason(source, dir) {
            true => Applicability::DisplayOnly,
            false => Applicability::Safe,
        };
        Fix::new(
            applicability,
            "remove the comment",
            [Edit::delete(comment_extent(source, dir.span))],
        )
    } else {
        Fix::new(
            Applicability::Safe,
            format!("remove `{name}` from the comment"),
            [Edit::delete(name_extent(dir, index))],
        )
    };
    Diagnostic::new(LINT.id, named.span, message)
        .with_label(label)
        .with_help(format!(
            "remove `{name}` from the comment; a directive covers findings that start on its own line, or on the line of code right below it"
        ))
        .with_fix(fix)
}

/// The comment gives a reason after its lints: `allow(x) -- why`.
fn has_reason(source: &SourceFile, dir: &Directive) -> bool {
    let after = dir.lints.last().map_or(dir.span.start, |n| n.span.end);
    let rest = source.text.get(after..dir.span.end).unwrap_or("");
    rest.split_once("--")
        .is_some_and(|(_, reason)| !reason.trim().is_empty())
}

/// What removing `comment` deletes: its whole line, line break included,
/// when it is alone on it; else the comment and the blanks before it, so
/// that the code it trails is left as it was.
fn comment_extent(source: &SourceFile, comment: Span) -> Span {
    let text = &source.text;
    let line = source.line(comment.start);
    let line_start = source.text_start(line);
    let before = &text[line_start..comment.start];
    let start = if before.trim().is_empty() {
        line_start
    } else {
        line_start + before.trim_end().len()
    };
    let end = if start == line_start {
        source.line_start(line + 1)
    } else {
        comment.end
    };
    Span {
        start,
        end,
        ..comment
    }
}

/// One name of a list with its separator: `a, ` out of `allow(a, b)`, or
/// `, b` when it is the last, so the list stays well formed.
fn name_extent(dir: &Directive, index: usize) -> Span {
    let here = dir.lints[index].span;
    match (dir.lints.get(index + 1), index.checked_sub(1)) {
        (Some(next), _) => Span {
            end: next.span.start,
            ..here
        },
        (None, Some(prev)) => Span {
            start: dir.lints[prev].span.end,
            ..here
        },
        (None, None) => here,
    }
}
