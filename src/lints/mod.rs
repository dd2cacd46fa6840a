//! The lints: one file each, declared with name, default severity and summary.
//!
//! Each lint looks at the facts of a whole crate (see [`crate::analysis`]);
//! extraction already ran per file, in parallel, so a lint only filters and
//! words what the facts say.

use crate::analysis::CrateFacts;
use crate::diagnostic::{Diagnostic, Severity};

pub mod duplicate_registration;
pub mod lowering_backend_mismatch;
pub mod non_canonical_platform_literal;
pub mod uncanonicalized_platform_comparison;

/// A lint's declaration.
pub struct Lint {
    /// snake_case; the file name here, the folder in `lints/`, the SARIF rule id.
    pub name: &'static str,
    pub default_severity: Severity,
    /// One line, no trailing period.
    pub summary: &'static str,
    /// `lints/<name>/README.md`, shown by `explain`.
    pub docs: &'static str,
    pub check: fn(&CrateFacts<'_>, &mut Vec<Diagnostic>),
}

/// Every lint, in alphabetical order (a test checks it against `lints/`).
pub const LINTS: &[&Lint] = &[
    &duplicate_registration::LINT,
    &lowering_backend_mismatch::LINT,
    &non_canonical_platform_literal::LINT,
    &uncanonicalized_platform_comparison::LINT,
];

pub fn find(name: &str) -> Option<&'static Lint> {
    LINTS.iter().copied().find(|l| l.name == name)
}
