//! `invalid_suppression`: a suppression comment that names no known lint or
//! cannot be read, so it silences nothing.

use crate::diagnostic::{Diagnostic, Severity, Span};
use crate::lints::{Check, LINTS, Lint};

pub const LINT: Lint = Lint {
    name: "invalid_suppression",
    default_severity: Severity::Warning,
    summary: "a suppression comment names an unknown lint or cannot be read",
    docs: include_str!("../../lints/invalid_suppression/README.md"),
    check: Check::Suppressions,
};

/// `// backend-lint: allow(duplicate_registrations)`.
pub fn unknown_lint(span: Span, name: &str) -> Diagnostic {
    let help = match closest(name) {
        Some(near) => format!("did you mean `{near}`? `backend-lint lints` lists the lints"),
        None => "`backend-lint lints` lists the lints".to_string(),
    };
    Diagnostic::new(
        LINT.name,
        LINT.default_severity,
        span,
        format!("unknown lint `{name}` in a suppression comment"),
    )
    .with_label("no lint has this name: nothing is allowed")
    .with_help(help)
}

/// `// backend-lint: alow(x)`, `// backend-lint: allow x`.
pub fn malformed(span: Span, message: &str) -> Diagnostic {
    Diagnostic::new(
        LINT.name,
        LINT.default_severity,
        span,
        format!("unreadable suppression comment: {message}"),
    )
    .with_label("this comment silences nothing")
    .with_help("write `// backend-lint: allow(lint_name) -- reason`")
}

/// The lint name nearest to `name`, if it is a likely typo.
fn closest(name: &str) -> Option<&'static str> {
    LINTS
        .iter()
        .map(|l| (edit_distance(name, l.name), l.name))
        .filter(|(d, _)| *d <= 3)
        .min()
        .map(|(_, n)| n)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    #[test]
    fn typos_find_the_lint() {
        assert_eq!(
            super::closest("duplicate_registrations"),
            Some("duplicate_registration")
        );
        assert_eq!(super::closest("something_else"), None);
    }
}
