//! Which lints exist: the lint table, and the id, name and default level of
//! each lint derived from it.
//!
//! Everything that names a lint (the configuration, suppression comments,
//! findings, reports) holds a [`LintId`], so that a name is checked once,
//! where it is read. The lints themselves (`crate::lints`) are listed from
//! the same table. This module imports nothing of the crate: every other
//! module may import it without closing a circle.

use std::fmt;

use serde::{Deserialize, Serialize};

/// What a lint's findings become.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Not reported.
    Allow,
    /// Reported as a warning; does not fail the run (unless `-D warnings`).
    Warn,
    /// Reported as an error; the run exits with 1.
    Deny,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Allow => "allow",
            Level::Warn => "warn",
            Level::Deny => "deny",
        }
    }
}

/// The lint table: one row per lint, `Variant module_name DefaultLevel`, in
/// alphabetical order. It hands the rows to `$callback!`, so that every list
/// of the lints is generated from this one: [`LintId`] here, `LINTS` in
/// `crate::lints` (whose module `module_name` declares the lint).
macro_rules! lint_table {
    ($callback:ident) => {
        $callback! {
            DuplicateRegistration duplicate_registration Deny,
            ImpossibleValueComparison impossible_value_comparison Warn,
            InitializedTwice initialized_twice Deny,
            InvalidSuppression invalid_suppression Warn,
            LoweringBackendMismatch lowering_backend_mismatch Deny,
            NonCanonicalPlatformLiteral non_canonical_platform_literal Deny,
            UncanonicalizedPlatformComparison uncanonicalized_platform_comparison Deny,
            UnusedSuppression unused_suppression Warn,
        }
    };
}
pub(crate) use lint_table;

macro_rules! lint_ids {
    ($($variant:ident $name:ident $level:ident,)*) => {
        /// One lint. Ordered as the table, which is by name.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum LintId {
            $($variant,)*
        }

        impl LintId {
            /// Every lint, in table order: `ALL[id.index()] == id`.
            pub const ALL: [LintId; [$(LintId::$variant,)*].len()] = [$(LintId::$variant,)*];

            /// The snake_case name: the lint's module and its folder in
            /// `lints/`, the SARIF rule id, the name in the configuration
            /// and in suppression comments.
            pub const fn name(self) -> &'static str {
                match self {
                    $(LintId::$variant => stringify!($name),)*
                }
            }

            /// The level when the configuration says nothing of the lint.
            pub const fn default_level(self) -> Level {
                match self {
                    $(LintId::$variant => Level::$level,)*
                }
            }
        }
    };
}
lint_table!(lint_ids);

/// How reports name a lint (`backend_lint::name`, as rustc names a tool's
/// lints); the command line and suppression comments accept it too.
pub const TOOL_PREFIX: &str = "backend_lint::";

/// The project's home; each lint's documentation is its README under it.
pub const REPOSITORY_URL: &str = "https://github.com/backend-lint/backend-lint";

impl LintId {
    pub const COUNT: usize = LintId::ALL.len();

    /// The place of the lint in [`LintId::ALL`]: an index into tables of
    /// lints (levels, `LINTS`, SARIF rules).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lint of that exact name.
    pub fn from_name(name: &str) -> Option<LintId> {
        LintId::ALL.iter().copied().find(|id| id.name() == name)
    }

    /// The lint of a name as the command line and suppression comments
    /// take it: the name, or the name behind [`TOOL_PREFIX`].
    pub fn from_written(text: &str) -> Option<LintId> {
        LintId::from_name(without_tool(text))
    }

    /// Where the lint's documentation (`lints/<name>/README.md`, what
    /// `explain` prints) is read online: SARIF's `helpUri`, the `url` of
    /// the JSON format, the closing help of rustc's JSON.
    pub fn docs_url(self) -> String {
        format!("{REPOSITORY_URL}/blob/main/lints/{}/README.md", self.name())
    }

    /// Every lint's name, in table order.
    pub fn names() -> impl Iterator<Item = &'static str> {
        LintId::ALL.iter().map(|id| id.name())
    }
}

impl fmt::Display for LintId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `pad`: widths and alignment apply, as to the name.
        f.pad(self.name())
    }
}

/// `text` without a leading [`TOOL_PREFIX`].
pub fn without_tool(text: &str) -> &str {
    text.strip_prefix(TOOL_PREFIX).unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_by_name_and_indexes_itself() {
        let names: Vec<&str> = LintId::names().collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        assert_eq!(
            names, sorted,
            "the lint table must be in alphabetical order"
        );
        for (i, id) in LintId::ALL.iter().enumerate() {
            assert_eq!(id.index(), i);
            assert_eq!(LintId::from_name(id.name()), Some(*id));
            assert_eq!(
                LintId::from_written(&format!("{TOOL_PREFIX}{id}")),
                Some(*id)
            );
        }
        assert_eq!(LintId::from_name("backend_lint::unused_suppression"), None);
        assert_eq!(LintId::from_name("unused_suppressions"), None);
    }
}
