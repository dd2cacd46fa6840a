//! Rendering of an [`Outcome`]: reporters only format, they never analyse.

pub mod diff;
pub mod github;
pub mod gitlab;
pub mod human;
pub mod json;
pub mod rustc;
pub mod sarif;
pub mod short;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::model::diagnostic::{Applicability, Span};
use crate::model::lint_id::LintId;
use crate::model::source::{FileId, LineCol, SourceFile, SourceMap};
use crate::run::Outcome;

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
    /// GitLab Code Quality report (JSON).
    Gitlab,
    /// rustc's JSON diagnostics, one per line (`--message-format json`), for editors.
    Rustc,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Human => "human",
            Format::Short => "short",
            Format::Json => "json",
            Format::Sarif => "sarif",
            Format::Github => "github",
            Format::Gitlab => "gitlab",
            Format::Rustc => "rustc",
        }
    }
}

/// How to render, beyond the format.
#[derive(Debug, Clone)]
pub struct Options {
    /// ANSI colors in the human format.
    pub color: bool,
    /// The repository root: CI formats (SARIF, GitHub, GitLab) give paths relative to it.
    pub root: PathBuf,
    /// No summary line in the human format (`--quiet`).
    pub quiet: bool,
}

pub fn render(format: Format, outcome: &Outcome, options: &Options) -> String {
    match format {
        Format::Human => human::render(outcome, options),
        Format::Short => short::render(outcome),
        Format::Json => json::render(outcome),
        Format::Sarif => sarif::render(outcome, &options.root),
        Format::Github => github::render(outcome, &options.root),
        Format::Gitlab => gitlab::render(outcome, &options.root),
        Format::Rustc => rustc::render(outcome),
    }
}

/// Write the report to `out`: as [`render`] gives it, SARIF written as it
/// is made (its results one at a time: a log of 100,000 is 300 MB).
pub fn write(
    format: Format,
    outcome: &Outcome,
    options: &Options,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    match format {
        Format::Sarif => sarif::write(outcome, &options.root, out),
        _ => out.write_all(render(format, outcome, options).as_bytes()),
    }
}

/// How a fix's applicability is written in every format: `safe` (applied
/// by `--fix`), `unsafe` (only with `--unsafe-fixes`), `display-only`.
pub(crate) fn applicability(a: Applicability) -> &'static str {
    match a {
        Applicability::Safe => "safe",
        Applicability::Unsafe => "unsafe",
        Applicability::DisplayOnly => "display-only",
    }
}

/// The repository around `start`: the nearest ancestor with `.git`, else `start`.
pub fn repository_root(start: &Path) -> PathBuf {
    let start = std::path::absolute(start).unwrap_or_else(|_| start.to_path_buf());
    start
        .ancestors()
        .find(|d| d.join(".git").exists())
        .unwrap_or(&start)
        .to_path_buf()
}

/// `path` relative to `root`, `/`-separated; `None` when outside it.
pub(crate) fn relative_to(path: &Path, root: &Path) -> Option<String> {
    let abs = std::path::absolute(path).ok()?;
    let rel = abs.strip_prefix(root).ok()?;
    Some(rel.to_string_lossy().replace('\\', "/"))
}

/// `path` as CI systems want it: relative to the repository root when inside
/// it, else as shown.
pub fn ci_path(sources: &SourceMap, file: crate::model::source::FileId, root: &Path) -> String {
    let f = sources.get(file);
    relative_to(&f.path, root).unwrap_or_else(|| f.display.clone())
}

/// What a skipped file is said to be, in the formats that write sentences:
/// "skipped `src/x.rs`: not a regular file (a FIFO); it was not read".
pub fn skipped_message(
    sources: &SourceMap,
    skipped: &crate::model::diagnostic::FileError,
) -> String {
    format!(
        "skipped `{}`: {}",
        sources.get(skipped.file).display,
        skipped.message
    )
}

/// How many files were analysed: every file of the run but those skipped
/// (never opened) and those that could not be analysed, which the summaries
/// count apart.
pub fn files_checked(outcome: &Outcome) -> usize {
    let mut apart: Vec<FileId> = (outcome.skipped.iter())
        .chain(&outcome.errors)
        .map(|e| e.file)
        .collect();
    apart.sort_unstable();
    apart.dedup();
    outcome.sources.len().saturating_sub(apart.len())
}

/// Start and end (exclusive end, as a position) of a span.
pub(crate) fn positions(sources: &SourceMap, span: Span) -> (LineCol, LineCol) {
    let file = sources.get(span.file);
    (file.line_col(span.start), file.line_col(span.end))
}

/// FNV-1a: small, stable across Rust versions and platforms (unlike `DefaultHasher`).
pub(crate) fn fnv1a(parts: &[&[u8]]) -> u64 {
    parts
        .iter()
        .flat_map(|p| p.iter())
        .fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
        })
}

/// A fingerprint of a finding that survives unrelated edits: a hash of the
/// lint, the file and the text of the finding's line, and which occurrence of
/// that hash in the report it is ("hash:n").
#[derive(Default)]
pub(crate) struct Fingerprints {
    seen: HashMap<u64, u32>,
    /// The hash of each (lint, file, line) met: a line is hashed once, not
    /// once per finding on it (80,000 findings on one line of 2.7 MB).
    lines: HashMap<(LintId, FileId, usize), u64>,
}

impl Fingerprints {
    /// A finding of `lint` on `line` of `file` (shown as `path`).
    pub(crate) fn of_line(
        &mut self,
        lint: LintId,
        path: &str,
        file: &SourceFile,
        id: FileId,
        line: usize,
    ) -> String {
        let hash = *self
            .lines
            .entry((lint, id, line))
            .or_insert_with(|| hash(lint.name(), path, file.line_text(line)));
        self.numbered(hash)
    }

    /// Something reported without a line (`line_text` empty) or outside
    /// the findings.
    pub(crate) fn next(&mut self, check: &str, path: &str, line_text: &str) -> String {
        self.numbered(hash(check, path, line_text))
    }

    fn numbered(&mut self, hash: u64) -> String {
        let n = self.seen.entry(hash).or_insert(0);
        *n += 1;
        format!("{hash:016x}:{n}")
    }
}

fn hash(check: &str, path: &str, line_text: &str) -> u64 {
    let text = line_text.trim();
    fnv1a(&[
        check.as_bytes(),
        b"\0",
        path.as_bytes(),
        b"\0",
        text.as_bytes(),
    ])
}

/// The fingerprint of every diagnostic of a report, in order: what SARIF's
/// `partialFingerprints` and the baseline identify a finding by.
pub fn fingerprints(outcome: &Outcome, root: &Path) -> Vec<String> {
    let sources = &outcome.sources;
    let mut fingerprints = Fingerprints::default();
    outcome
        .diagnostics
        .iter()
        .map(|d| {
            let file = sources.get(d.span.file);
            let line = file.line_col(d.span.start).line;
            let path = ci_path(sources, d.span.file, root);
            fingerprints.of_line(d.lint, &path, file, d.span.file, line)
        })
        .collect()
}

/// "2 errors and 1 warning", "3 errors", "1 warning".
pub(crate) fn count_by_severity(diagnostics: &[crate::model::diagnostic::Diagnostic]) -> String {
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == crate::model::diagnostic::Severity::Error)
        .count();
    let warnings = diagnostics.len() - errors;
    match (errors, warnings) {
        (0, 0) => "no findings".to_string(),
        (e, 0) => plural(e, "error"),
        (0, w) => plural(w, "warning"),
        (e, w) => format!("{} and {}", plural(e, "error"), plural(w, "warning")),
    }
}

/// "3 errors", "1 error".
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
