//! The only model lints produce: plain data, no rendering.
//!
//! Reporters in `report/` turn these into miette reports, JSON, SARIF, ...

use crate::model::lint_id::{Level, LintId};
pub use crate::model::source::{FileId, Span};

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

// Beside `Severity` rather than `Level`: the lint table, which `Level` sits
// in, imports nothing of the crate.
impl Level {
    /// The severity findings at this level are reported with; `None`: they
    /// are not reported.
    pub fn severity(self) -> Option<Severity> {
        match self {
            Level::Allow => None,
            Level::Warn => Some(Severity::Warning),
            Level::Deny => Some(Severity::Error),
        }
    }
}

/// A secondary location with a message, e.g. "first registered here".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// One finding of one lint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The lint that found it.
    pub lint: LintId,
    pub severity: Severity,
    /// What is wrong, rustc style: lowercase, no trailing period.
    pub message: String,
    /// Where it is wrong.
    pub span: Span,
    /// Short text shown under the primary span.
    pub label: String,
    /// Secondary locations; they may be in other files.
    pub labels: Vec<Label>,
    /// What to do about it, in the imperative.
    pub help: Option<String>,
}

impl Diagnostic {
    /// A finding with its lint's default severity (the configured level is
    /// applied later, see `lints::apply::levels`; a lint allowed by default
    /// is reported only when configured, with the severity of that level).
    pub fn new(lint: LintId, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            lint,
            severity: lint.default_level().severity().unwrap_or(Severity::Warning),
            message: message.into(),
            span,
            label: String::new(),
            labels: Vec::new(),
            help: None,
        }
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

/// A file that could not be analysed (unreadable, not UTF-8, does not parse).
/// It is reported beside the findings and makes the run exit with 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    pub file: FileId,
    pub message: String,
    /// Where in the file, when the error has a location (parse errors).
    pub span: Option<Span>,
}
