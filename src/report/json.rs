//! `--format json`: one object, stable and documented in the README.
//!
//! ```text
//! { "version": 1,
//!   "tool": { "name", "version" },
//!   "diagnostics": [ { "lint", "url", "severity", "message", "label", "help",
//!                      "span": Span, "labels": [ { "message", "span": Span } ],
//!                      "fix": { "message", "applicability": "safe" | "unsafe" | "display-only",
//!                               "edits": [ { "span": Span, "replacement" } ] } | null } ],
//!   "errors": [ { "file", "message", "span": Span | null } ],
//!   "skipped": [ same as errors: files not analysed that fail nothing (never
//!                opened, or not parsable and compiled by no target), the
//!                message saying why ],
//!   "summary": { "files_checked", "diagnostics", "errors", "skipped" } }
//! Span = { "file", "line", "column", "end_line", "end_column", "byte_start", "byte_end" }
//! ```
//! Lines and columns are 1-based; columns count Unicode scalar values; the
//! end is exclusive.

use serde::Serialize;

use crate::model::diagnostic::Span as DSpan;
use crate::model::source::SourceMap;
use crate::report::{applicability, positions};
use crate::run::Outcome;

/// Bumped only on incompatible changes.
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Serialize)]
struct Output<'a> {
    version: u32,
    tool: Tool,
    diagnostics: Vec<Diagnostic<'a>>,
    errors: Vec<Error<'a>>,
    /// Files not analysed that fail nothing, with why.
    skipped: Vec<Error<'a>>,
    summary: Summary,
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct Span<'a> {
    file: &'a str,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    byte_start: usize,
    byte_end: usize,
}

#[derive(Serialize)]
struct Diagnostic<'a> {
    lint: &'a str,
    /// The lint's documentation online.
    url: String,
    severity: &'a str,
    message: &'a str,
    label: &'a str,
    help: Option<&'a str>,
    span: Span<'a>,
    labels: Vec<Label<'a>>,
    /// The finding's fix, when it has one.
    fix: Option<Fix<'a>>,
}

#[derive(Serialize)]
struct Fix<'a> {
    message: &'a str,
    /// `safe`, `unsafe` or `display-only`.
    applicability: &'static str,
    edits: Vec<Edit<'a>>,
}

#[derive(Serialize)]
struct Edit<'a> {
    span: Span<'a>,
    replacement: &'a str,
}

#[derive(Serialize)]
struct Label<'a> {
    message: &'a str,
    span: Span<'a>,
}

#[derive(Serialize)]
struct Error<'a> {
    file: &'a str,
    message: &'a str,
    span: Option<Span<'a>>,
}

#[derive(Serialize)]
struct Summary {
    files_checked: usize,
    diagnostics: usize,
    errors: usize,
    skipped: usize,
}

fn span(sources: &SourceMap, s: DSpan) -> Span<'_> {
    let (start, end) = positions(sources, s);
    Span {
        file: &sources.get(s.file).display,
        line: start.line,
        column: start.column,
        end_line: end.line,
        end_column: end.column,
        byte_start: s.start,
        byte_end: s.end,
    }
}

fn error<'a>(sources: &'a SourceMap, e: &'a crate::model::diagnostic::FileError) -> Error<'a> {
    Error {
        file: &sources.get(e.file).display,
        message: &e.message,
        span: e.span.map(|s| span(sources, s)),
    }
}

fn fix<'a>(sources: &'a SourceMap, f: &'a crate::model::diagnostic::Fix) -> Fix<'a> {
    Fix {
        message: &f.message,
        applicability: applicability(f.applicability),
        edits: f
            .edits
            .iter()
            .map(|e| Edit {
                span: span(sources, e.span),
                replacement: &e.replacement,
            })
            .collect(),
    }
}

pub fn render(outcome: &Outcome) -> String {
    let sources = &outcome.sources;
    let output = Output {
        version: SCHEMA_VERSION,
        tool: Tool {
            name: env!("CARGO_PKG_NAME"),
            version: env!("CARGO_PKG_VERSION"),
        },
        diagnostics: outcome
            .diagnostics
            .iter()
            .map(|d| Diagnostic {
                lint: d.lint.name(),
                url: d.lint.docs_url(),
                severity: d.severity.as_str(),
                message: &d.message,
                label: &d.label,
                help: d.help.as_deref(),
                span: span(sources, d.span),
                labels: d
                    .labels
                    .iter()
                    .map(|l| Label {
                        message: &l.message,
                        span: span(sources, l.span),
                    })
                    .collect(),
                fix: d.fix.as_ref().map(|f| fix(sources, f)),
            })
            .collect(),
        errors: outcome.errors.iter().map(|e| error(sources, e)).collect(),
        skipped: outcome.skipped.iter().map(|e| error(sources, e)).collect(),
        summary: Summary {
            files_checked: super::files_checked(outcome),
            diagnostics: outcome.diagnostics.len(),
            errors: outcome.errors.len(),
            skipped: outcome.skipped.len(),
        },
    };
    crate::model::text::json_document(&output)
}
