//! The lints: one file each, declared with name, default severity and summary.
//!
//! Each lint looks at the facts of a whole crate (see [`crate::analysis`]);
//! extraction already ran per file, in parallel, so a lint only filters and
//! words what the facts say.

use crate::analysis::CrateFacts;
use crate::diagnostic::{Diagnostic, Severity};

pub mod duplicate_registration;
pub mod invalid_suppression;
pub mod lowering_backend_mismatch;
pub mod non_canonical_platform_literal;
pub mod uncanonicalized_platform_comparison;
pub mod unused_suppression;

/// A lint's declaration.
pub struct Lint {
    /// snake_case; the file name here, the folder in `lints/`, the SARIF rule id.
    pub name: &'static str,
    pub default_severity: Severity,
    /// One line, no trailing period.
    pub summary: &'static str,
    /// `lints/<name>/README.md`, shown by `explain`.
    pub docs: &'static str,
    pub check: Check,
}

/// How a lint finds its findings.
pub enum Check {
    /// Over the facts of a whole crate.
    Crate(fn(&CrateFacts<'_>, &mut Vec<Diagnostic>)),
    /// While suppression comments are applied ([`crate::suppression`]): the
    /// lints about the comments themselves.
    Suppressions,
}

/// Every lint, in alphabetical order (a test checks it against `lints/`).
pub const LINTS: &[&Lint] = &[
    &duplicate_registration::LINT,
    &invalid_suppression::LINT,
    &lowering_backend_mismatch::LINT,
    &non_canonical_platform_literal::LINT,
    &uncanonicalized_platform_comparison::LINT,
    &unused_suppression::LINT,
];

pub fn find(name: &str) -> Option<&'static Lint> {
    LINTS.iter().copied().find(|l| l.name == name)
}

/// The lint name nearest to `name`, if it is a likely typo (for messages).
pub fn closest(name: &str) -> Option<&'static str> {
    nearest(name, LINTS.iter().map(|l| l.name))
}

/// The candidate nearest to `word` if it is a likely typo of it: at most one
/// edit per three characters (at least one), as `chek` for `check`, not `init`
/// for `lints`.
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let most = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (strsim::levenshtein(word, c), c))
        .filter(|(d, _)| *d <= most)
        .min()
        .map(|(_, c)| c)
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
        assert_eq!(super::nearest("chek", ["check", "lints"]), Some("check"));
        assert_eq!(super::nearest("init", ["check", "lints"]), None);
    }
}
