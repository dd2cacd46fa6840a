//! The only model lints produce: plain data, no rendering.
//!
//! Reporters in `report/` turn these into miette reports, JSON, SARIF, ...

use crate::source::FileId;

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

/// A byte range in one file of the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub file: FileId,
    pub start: usize,
    pub end: usize,
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
    /// The lint's snake_case name: rule id in SARIF, name in suppressions.
    pub lint: &'static str,
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
    pub fn new(
        lint: &'static str,
        severity: Severity,
        span: Span,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            lint,
            severity,
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
