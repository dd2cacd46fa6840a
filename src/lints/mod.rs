//! The lints: one file each, declaring the lint of its row in the lint
//! table ([`crate::model::lint_id`]) with its summary, docs and check.
//!
//! Each lint looks at the facts of a whole crate (see [`crate::analysis`]);
//! extraction already ran per file, in parallel, so a lint only filters and
//! words what the facts say.

use crate::analysis::CrateFacts;
use crate::model::diagnostic::Diagnostic;
use crate::model::lint_id::{LintId, lint_table};

pub mod apply;

/// A lint's declaration.
pub struct Lint {
    pub id: LintId,
    /// One line, no trailing period.
    pub summary: &'static str,
    /// `lints/<name>/README.md`, shown by `explain`.
    pub docs: &'static str,
    pub check: Check,
    /// Some findings carry a fix: the README says what it edits and how
    /// far it can be trusted, under `## Fix`.
    pub fixes: bool,
}

impl Lint {
    pub fn name(&self) -> &'static str {
        self.id.name()
    }
}

/// How a lint finds its findings.
pub enum Check {
    /// Over the facts of a whole crate.
    Crate(fn(&CrateFacts<'_>, &mut Vec<Diagnostic>)),
    /// While suppression comments are applied ([`apply::suppression`]): the
    /// lints about the comments themselves.
    Suppressions,
}

// Each row of the table is a lint's module here (`src/lints/<name>.rs`) and
// its place in `LINTS`: adding a lint is its file, its folder in `lints/`
// and its row, nothing else. rustfmt does not follow modules declared in a
// macro: tests/registry.rs checks their formatting by name.
macro_rules! lints {
    ($($variant:ident $module:ident $level:ident,)*) => {
        $(pub mod $module;)*

        /// Every lint, in [`LintId::ALL`] order: `LINTS[id.index()]` is the
        /// lint of `id`.
        pub const LINTS: &[&Lint] = &[$(&$module::LINT,)*];
    };
}
lint_table!(lints);

/// The lint of `id`.
pub fn lint(id: LintId) -> &'static Lint {
    LINTS[id.index()]
}

/// The lint of that exact name. Only the tests look one up this way
/// (feature `testing`).
#[cfg(feature = "testing")]
pub fn find(name: &str) -> Option<&'static Lint> {
    LintId::from_name(name).map(lint)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_lint_sits_at_its_index() {
        assert_eq!(LINTS.len(), LintId::COUNT);
        for id in LintId::ALL {
            assert_eq!(lint(id).id, id);
        }
    }
}
