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
    /// The edit that does it, when there is a sound one.
    pub fix: Option<Fix>,
}

/// How far a fix can be trusted, as ruff and rustc grade theirs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Applicability {
    /// Shown, never applied: the edit needs a choice only the user can make.
    DisplayOnly,
    /// Likely right, but may change behaviour: applied with `--unsafe-fixes` only.
    Unsafe,
    /// Keeps the meaning the code evidently intends: applied by `--fix`.
    Safe,
}

/// One replacement of a byte range of one file. An empty range inserts,
/// an empty replacement deletes.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Edit {
    pub span: Span,
    pub replacement: String,
}

/// What a finding's fix does: a message saying it in the imperative
/// ("replace `\"CUDA\"` with `\"cuda\"`") and its edits, applied together
/// or not at all. The edits of one fix never overlap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub message: String,
    pub applicability: Applicability,
    pub edits: Vec<Edit>,
}

impl Fix {
    pub fn new(
        applicability: Applicability,
        message: impl Into<String>,
        edits: impl IntoIterator<Item = Edit>,
    ) -> Fix {
        let mut edits: Vec<Edit> = edits.into_iter().collect();
        edits.sort();
        Fix {
            message: message.into(),
            applicability,
            edits,
        }
    }
}

impl Edit {
    pub fn replace(span: Span, replacement: impl Into<String>) -> Edit {
        Edit {
            span,
            replacement: replacement.into(),
        }
    }

    pub fn delete(span: Span) -> Edit {
        Edit::replace(span, "")
    }

    pub fn insert(file: FileId, at: usize, text: impl Into<String>) -> Edit {
        Edit::replace(
            Span {
                file,
                start: at,
                end: at,
            },
            text,
        )
    }
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
            fix: None,
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

    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fix = Some(fix);
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
