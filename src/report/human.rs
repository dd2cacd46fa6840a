//! miette's graphical report: source excerpts, labels, help.

use std::fmt;
use std::sync::Arc;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource};

use crate::diagnostic::Severity;
use crate::engine::Outcome;
use crate::report::{Options, plural, skipped_message};
use crate::source::SourceMap;

/// A diagnostic in miette's terms.
#[derive(Debug)]
struct Report {
    message: String,
    code: Option<String>,
    severity: miette::Severity,
    help: Option<String>,
    source: Option<NamedSource<Arc<str>>>,
    labels: Vec<LabeledSpan>,
    /// Labels in other files: each shown with its own excerpt.
    related: Vec<Report>,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Report {}

impl miette::Diagnostic for Report {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.code
            .as_ref()
            .map(|c| Box::new(c) as Box<dyn fmt::Display>)
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.labels.is_empty() {
            None
        } else {
            Some(Box::new(self.labels.iter().cloned()))
        }
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        if self.related.is_empty() {
            None
        } else {
            Some(Box::new(
                self.related.iter().map(|r| r as &dyn miette::Diagnostic),
            ))
        }
    }
}

fn source(sources: &SourceMap, file: u32) -> NamedSource<Arc<str>> {
    let f = sources.get(file);
    NamedSource::new(&f.display, f.text.clone()).with_language("Rust")
}

fn label(text: &str, start: usize, end: usize, primary: bool) -> LabeledSpan {
    let text = (!text.is_empty()).then(|| text.to_string());
    if primary {
        LabeledSpan::new_primary_with_span(text, start..end)
    } else {
        LabeledSpan::new_with_span(text, start..end)
    }
}

pub fn render(outcome: &Outcome, options: &Options) -> String {
    let theme = if options.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_links(false)
        .with_width(100)
        .with_context_lines(1);
    let sources = &outcome.sources;
    let mut reports = Vec::new();
    let mut header_fixes: Vec<Vec<(String, String)>> = Vec::new();
    for e in &outcome.errors {
        header_fixes.push(
            e.span
                .iter()
                .filter_map(|s| header_fix(sources, e.file, s.start))
                .collect(),
        );
        let labels = e
            .span
            .map(|s| vec![label("here", s.start, s.end, true)])
            .unwrap_or_default();
        reports.push(Report {
            message: format!("{}: {}", sources.get(e.file).display, e.message),
            code: None,
            severity: miette::Severity::Error,
            help: Some("the file was skipped; the other files were analysed".into()),
            source: e.span.map(|_| source(sources, e.file)),
            labels,
            related: Vec::new(),
        });
    }
    // Warnings, as on stderr, and not with `--quiet`: they fail nothing.
    for e in outcome.skipped.iter().filter(|_| !options.quiet) {
        header_fixes.push(Vec::new());
        reports.push(Report {
            message: skipped_message(sources, e),
            code: None,
            severity: miette::Severity::Warning,
            help: None,
            source: None,
            labels: Vec::new(),
            related: Vec::new(),
        });
    }
    for d in &outcome.diagnostics {
        // A label in another file, or far from the finding in this one, gets
        // an excerpt of its own: one excerpt spanning both would show every
        // line in between (a registration 30 lines apart, 30 lines).
        let line = |s: crate::diagnostic::Span| sources.get(s.file).line_col(s.start).line;
        let apart = |l: &&crate::diagnostic::Label| {
            l.span.file != d.span.file || line(l.span).abs_diff(line(d.span)) > MAX_EXCERPT_GAP
        };
        let mut fixes: Vec<(String, String)> = header_fix(sources, d.span.file, d.span.start)
            .into_iter()
            .collect();
        fixes.extend(
            d.labels
                .iter()
                .filter(apart)
                .filter_map(|l| header_fix(sources, l.span.file, l.span.start)),
        );
        header_fixes.push(fixes);
        let mut labels = vec![label(&d.label, d.span.start, d.span.end, true)];
        let mut related = Vec::new();
        for l in &d.labels {
            if !apart(&l) {
                labels.push(label(&l.message, l.span.start, l.span.end, false));
            } else {
                let at = sources.get(l.span.file).line_col(l.span.start);
                related.push(Report {
                    message: format!(
                        "{} ({}:{}:{})",
                        l.message,
                        sources.get(l.span.file).display,
                        at.line,
                        at.column
                    ),
                    code: None,
                    severity: miette::Severity::Advice,
                    help: None,
                    source: Some(source(sources, l.span.file)),
                    labels: vec![label("", l.span.start, l.span.end, true)],
                    related: Vec::new(),
                });
            }
        }
        reports.push(Report {
            message: d.message.clone(),
            code: Some(format!("backend_lint::{}", d.lint)),
            severity: match d.severity {
                Severity::Error => miette::Severity::Error,
                Severity::Warning => miette::Severity::Warning,
            },
            help: d.help.clone(),
            source: Some(source(sources, d.span.file)),
            labels,
            related,
        });
    }
    let mut out = String::new();
    for (r, fixes) in reports.iter().zip(&header_fixes) {
        let mut one = String::new();
        if handler.render_report(&mut one, r).is_err() {
            one = format!("error: {}\n", r.message);
        }
        for (theirs, ours) in fixes {
            one = one.replacen(theirs.as_str(), ours, 1);
        }
        out.push_str(&one);
        out.push('\n');
    }
    if !options.quiet {
        out.push_str(&summary(outcome));
    }
    out
}

/// miette's excerpt header (`╭─[path:line:column]`) counts the column in
/// bytes; every other format counts characters, as rustc does. The pair to
/// replace when the two differ.
fn header_fix(sources: &SourceMap, file: u32, offset: usize) -> Option<(String, String)> {
    let f = sources.get(file);
    let at = f.line_col(offset);
    let line_start = offset.min(f.text.len())
        - f.text[..offset.min(f.text.len())]
            .rfind('\n')
            .map_or(0, |i| i + 1);
    let byte_column = line_start + 1;
    (byte_column != at.column).then(|| {
        (
            format!("[{}:{}:{byte_column}]", f.display, at.line),
            format!("[{}:{}:{}]", f.display, at.line, at.column),
        )
    })
}

/// Labels further than this many lines from the finding get their own excerpt.
const MAX_EXCERPT_GAP: usize = 8;

/// The closing line of the human report.
fn summary(outcome: &Outcome) -> String {
    let findings = outcome.diagnostics.len();
    let mut files: Vec<u32> = outcome.diagnostics.iter().map(|d| d.span.file).collect();
    files.sort_unstable();
    files.dedup();
    let checked = outcome.sources.len();
    let mut line = if findings == 0 {
        format!("no findings in {}", plural(checked, "file"))
    } else {
        format!(
            "{} in {} ({} checked)",
            super::count_by_severity(&outcome.diagnostics),
            plural(files.len(), "file"),
            plural(checked, "file")
        )
    };
    if !outcome.errors.is_empty() {
        line.push_str(&format!(
            "; {} could not be analysed",
            plural(outcome.errors.len(), "file")
        ));
    }
    if !outcome.skipped.is_empty() {
        line.push_str(&format!(
            "; {} skipped",
            plural(outcome.skipped.len(), "file")
        ));
    }
    line.push('\n');
    line
}
