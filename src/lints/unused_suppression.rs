//! `unused_suppression`: a suppression comment that silences nothing.

use crate::lints::{Check, Lint};
use crate::model::diagnostic::{Diagnostic, Span};
use crate::model::lint_id::LintId;

pub const LINT: Lint = Lint {
    id: LintId::UnusedSuppression,
    summary: "a suppression comment silences no finding",
    docs: include_str!("../../lints/unused_suppression/README.md"),
    check: Check::Suppressions,
    fixes: false,
};

pub fn diagnostic(span: Span, name: &str, file_wide: bool) -> Diagnostic {
    let (message, label) = if file_wide {
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
    Diagnostic::new(LINT.id, span, message)
        .with_label(label)
        .with_help(format!(
            "remove `{name}` from the comment; a directive covers findings that start on its own line, or on the line of code right below it"
        ))
}
