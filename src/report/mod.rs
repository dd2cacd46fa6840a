//! Rendering of an [`Outcome`]: reporters only format, they never analyse.

pub mod github;
pub mod human;
pub mod json;
pub mod sarif;
pub mod short;

use crate::diagnostic::Span;
use crate::engine::Outcome;
use crate::source::{LineCol, SourceMap};

/// The output formats of `--format`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Graphical report with source excerpts (miette).
    #[default]
    Human,
    /// One line per finding: `path:line:col: severity[lint]: message`.
    Short,
    /// One JSON object with every field of every diagnostic.
    Json,
    /// SARIF 2.1.0, for code scanning.
    Sarif,
    /// GitHub Actions workflow commands (annotations).
    Github,
}

/// How to render, beyond the format.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// ANSI colors in the human format.
    pub color: bool,
}

pub fn render(format: Format, outcome: &Outcome, options: Options) -> String {
    match format {
        Format::Human => human::render(outcome, options),
        Format::Short => short::render(outcome),
        Format::Json => json::render(outcome),
        Format::Sarif => sarif::render(outcome),
        Format::Github => github::render(outcome),
    }
}

/// Start and end (exclusive end, as a position) of a span.
pub(crate) fn positions(sources: &SourceMap, span: Span) -> (LineCol, LineCol) {
    let file = sources.get(span.file);
    (file.line_col(span.start), file.line_col(span.end))
}

/// "3 errors", "1 error".
pub(crate) fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
