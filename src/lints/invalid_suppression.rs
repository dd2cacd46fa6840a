//! `invalid_suppression`: a suppression comment that names no known lint or
//! cannot be read, so it silences nothing.

use crate::lints::{Check, Lint};
use crate::model::diagnostic::{Applicability, Diagnostic, Edit, Fix, Span};
use crate::model::lint_id::{LintId, without_tool};

pub const LINT: Lint = Lint {
    id: LintId::InvalidSuppression,
    summary: "a suppression comment names an unknown lint or cannot be read",
    docs: include_str!("../../lints/invalid_suppression/README.md"),
    check: Check::Suppressions,
    fixes: true,
};

/// `// backend-lint: allow(duplicate_registrations)`. The fix writes the
/// closest lint name instead, and is unsafe: the comment then silences
/// findings that were reported, and the closest name may not be the one meant.
pub fn unknown_lint(span: Span, name: &str) -> Diagnostic {
    let near = repair(name);
    let help = match near {
        Some(near) => format!("did you mean `{near}`? `backend-lint lints` lists the lints"),
        None => "`backend-lint lints` lists the lints".to_string(),
    };
    let d = Diagnostic::new(
        LINT.id,
        span,
        format!("unknown lint `{name}` in a suppression comment"),
    )
    .with_label("no lint has this name: nothing is allowed")
    .with_help(help);
    match near {
        Some(near) => d.with_fix(Fix::new(
            Applicability::Unsafe,
            format!("replace `{name}` with `{near}`"),
            [Edit::replace(span, near.name())],
        )),
        None => d,
    }
}

/// The lint an unknown name is corrected to by the fix of its finding.
pub fn repair(name: &str) -> Option<LintId> {
    crate::model::typo::closest_lint(without_tool(name))
}

/// `// backend-lint: alow(x)`, `// backend-lint: allow x`.
pub fn malformed(span: Span, message: &str) -> Diagnostic {
    Diagnostic::new(
        LINT.id,
        span,
        format!("unreadable suppression comment: {message}"),
    )
    .with_label("this comment silences nothing")
    .with_help("write `// backend-lint: allow(lint_name) -- reason`")
}
