//! miette's graphical report: source excerpts, labels, help.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource};

use crate::model::diagnostic::{Edit, Fix, Severity, Span};
use crate::model::fix;
use crate::model::source::{FileId, SourceFile, SourceMap};
use crate::model::text::{Excerpt, excerpt_fits, visible};
use crate::report::{Options, applicability, plural, skipped_message};
use crate::run::Outcome;

/// A diagnostic in miette's terms.
#[derive(Debug)]
struct Report {
    message: String,
    code: Option<String>,
    severity: miette::Severity,
    help: Option<String>,
    source: Option<NamedSource<Lines>>,
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

/// The files of the report as their excerpts show them: name and text
/// [`visible`], spans moved to match. Only the files with something to
/// show, each made once (most are their own text, not copied).
struct Files<'a> {
    sources: &'a SourceMap,
    shown: HashMap<u32, (String, Excerpt, Arc<[usize]>)>,
}

/// An excerpt's text as miette reads it, with where its lines start:
/// miette's own reader of a text counts the lines from its start for each
/// span (each finding of a file with 8,000 read the file 8,000 times);
/// this one reads from a few lines before the span, as if from the start.
#[derive(Debug, Clone)]
struct Lines {
    text: Arc<str>,
    /// 0, then where each line starts after a line break as miette counts
    /// them (`\n`, `\r\n`, a lone `\r`).
    starts: Arc<[usize]>,
}

impl Lines {
    fn starts(text: &str) -> Arc<[usize]> {
        let b = text.as_bytes();
        let mut starts = vec![0];
        for i in memchr::memchr2_iter(b'\n', b'\r', b) {
            // `\r\n` is one line break, ending after the `\n`.
            if !(b[i] == b'\r' && b.get(i + 1) == Some(&b'\n')) {
                starts.push(i + 1);
            }
        }
        starts.into()
    }
}

impl miette::SourceCode for Lines {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        // The line of the span's start, and a window from two lines more
        // than the context before it (as miette tells where the context
        // starts from the line breaks it has met), or from the start.
        let line = self.starts.partition_point(|&s| s <= span.offset()) - 1;
        let first = line.saturating_sub(context_lines_before + 2);
        let from = self.starts[first];
        let window = &self.text.as_bytes()[from..];
        let shifted = miette::SourceSpan::new((span.offset() - from).into(), span.len());
        let inner = window.read_span(&shifted, context_lines_before, context_lines_after)?;
        let at = miette::SourceSpan::new((inner.span().offset() + from).into(), inner.span().len());
        Ok(Box::new(miette::MietteSpanContents::new(
            inner.data(),
            at,
            inner.line() + first,
            inner.column(),
            inner.line_count() + first,
        )))
    }
}

impl<'a> Files<'a> {
    fn new(outcome: &'a Outcome) -> Files<'a> {
        let sources = &outcome.sources;
        let spans = outcome.errors.iter().filter_map(|e| e.span);
        let spans = spans.chain(
            (outcome.diagnostics.iter())
                .flat_map(|d| std::iter::once(d.span).chain(d.labels.iter().map(|l| l.span))),
        );
        let mut shown = HashMap::new();
        for span in spans {
            shown.entry(span.file).or_insert_with(|| {
                let f = sources.get(span.file);
                let excerpt = Excerpt::new(&f.text);
                let starts = Lines::starts(&excerpt.text);
                (visible(&f.display).into_owned(), excerpt, starts)
            });
        }
        Files { sources, shown }
    }

    fn source(&self, file: u32) -> NamedSource<Lines> {
        let (name, excerpt, starts) = &self.shown[&file];
        let lines = Lines {
            text: excerpt.text.clone(),
            starts: starts.clone(),
        };
        NamedSource::new(name, lines).with_language("Rust")
    }

    fn label(&self, text: &str, span: Span, primary: bool) -> LabeledSpan {
        let text = (!text.is_empty()).then(|| visible(text).into_owned());
        let (_, excerpt, _) = &self.shown[&span.file];
        let range = excerpt.offset(span.start)..excerpt.offset(span.end);
        if primary {
            LabeledSpan::new_primary_with_span(text, range)
        } else {
            LabeledSpan::new_with_span(text, range)
        }
    }

    /// Whether the lines of an excerpt of `span` (with its line of context
    /// on each side) are short enough to show: miette lays out a whole line,
    /// and a line of generated or minified code can be megabytes long (past
    /// 65,535 columns its layout panics).
    fn fits(&self, span: Span) -> bool {
        excerpt_fits(self.sources.get(span.file), span.start, span.end)
    }

    /// Where a finding whose excerpt is left out is, for its message.
    fn too_long(&self, span: Span) -> String {
        let file = self.sources.get(span.file);
        let at = file.line_col(span.start);
        format!(
            " (at {}:{}:{}; the lines around it are too long to show)",
            file.display, at.line, at.column
        )
    }

    /// miette's excerpt header (`╭─[path:line:column]`) counts the column
    /// in bytes of the excerpt; every other format counts characters of the
    /// file, as rustc does. The pair to replace when the two differ.
    fn header_fix(&self, file: u32, offset: usize) -> Option<(String, String)> {
        let (name, excerpt, _) = &self.shown[&file];
        let source = self.sources.get(file);
        let at = source.line_col(offset);
        let line_start = excerpt.offset(source.line_start(at.line));
        let offset = excerpt.offset(offset).min(excerpt.text.len());
        let byte_column = offset - line_start + 1;
        (byte_column != at.column).then(|| {
            (
                format!("{name}:{}:{byte_column}", at.line),
                format!("{name}:{}:{}", at.line, at.column),
            )
        })
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
    let files = Files::new(outcome);
    let mut reports = Vec::new();
    let mut header_fixes: Vec<Vec<(String, String)>> = Vec::new();
    for e in &outcome.errors {
        let shown = e.span.filter(|s| files.fits(*s));
        header_fixes.push(
            shown
                .iter()
                .filter_map(|s| files.header_fix(e.file, s.start))
                .collect(),
        );
        let labels = shown
            .map(|s| vec![files.label("here", s, true)])
            .unwrap_or_default();
        let mut message = format!("{}: {}", sources.get(e.file).display, e.message);
        if let Some(s) = e.span.filter(|_| shown.is_none()) {
            message.push_str(&files.too_long(s));
        }
        reports.push(Report {
            message: visible(&message).into_owned(),
            code: None,
            severity: miette::Severity::Error,
            help: Some("the file was skipped; the other files were analysed".into()),
            source: shown.map(|_| files.source(e.file)),
            labels,
            related: Vec::new(),
        });
    }
    // Warnings, as on stderr, and not with `--quiet`: they fail nothing.
    for e in outcome.skipped.iter().filter(|_| !options.quiet) {
        header_fixes.push(Vec::new());
        reports.push(Report {
            message: visible(&skipped_message(sources, e)).into_owned(),
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
        let line = |s: crate::model::diagnostic::Span| sources.get(s.file).line_col(s.start).line;
        let apart = |l: &&crate::model::diagnostic::Label| {
            l.span.file != d.span.file || line(l.span).abs_diff(line(d.span)) > MAX_EXCERPT_GAP
        };
        // An excerpt of a line too long to show is left out, labels and all
        // (and so is the fix of its header).
        let shown = files.fits(d.span) && d.labels.iter().all(|l| apart(&l) || files.fits(l.span));
        let mut fixes: Vec<(String, String)> = (shown
            .then(|| files.header_fix(d.span.file, d.span.start)))
        .flatten()
        .into_iter()
        .collect();
        fixes.extend(
            d.labels
                .iter()
                .filter(apart)
                .filter(|l| files.fits(l.span))
                .filter_map(|l| files.header_fix(l.span.file, l.span.start)),
        );
        header_fixes.push(fixes);
        let mut labels = Vec::new();
        let mut message = d.message.clone();
        if shown {
            labels.push(files.label(&d.label, d.span, true));
        } else {
            message.push_str(&files.too_long(d.span));
        }
        let mut related = Vec::new();
        for l in &d.labels {
            if !apart(&l) {
                if shown {
                    labels.push(files.label(&l.message, l.span, false));
                }
            } else {
                let at = sources.get(l.span.file).line_col(l.span.start);
                related.push(Report {
                    message: visible(&format!(
                        "{} ({}:{}:{})",
                        l.message,
                        sources.get(l.span.file).display,
                        at.line,
                        at.column
                    ))
                    .into_owned(),
                    code: None,
                    severity: miette::Severity::Advice,
                    help: None,
                    source: files.fits(l.span).then(|| files.source(l.span.file)),
                    labels: if files.fits(l.span) {
                        vec![files.label("", l.span, true)]
                    } else {
                        Vec::new()
                    },
                    related: Vec::new(),
                });
            }
        }
        reports.push(Report {
            message: visible(&message).into_owned(),
            code: Some(format!("backend_lint::{}", d.lint)),
            severity: match d.severity {
                Severity::Error => miette::Severity::Error,
                Severity::Warning => miette::Severity::Warning,
            },
            help: d.help.as_deref().map(|h| visible(h).into_owned()),
            source: shown.then(|| files.source(d.span.file)),
            labels,
            related,
        });
    }
    // Errors and skipped files come first, and have no fix.
    let diffs = (outcome.errors.iter().map(|_| None))
        .chain(
            outcome
                .skipped
                .iter()
                .filter(|_| !options.quiet)
                .map(|_| None),
        )
        .chain(outcome.diagnostics.iter().map(|d| d.fix.as_ref()));
    let mut out = String::new();
    for ((r, fixes), fix) in reports.iter().zip(&header_fixes).zip(diffs) {
        let mut one = String::new();
        if handler.render_report(&mut one, r).is_err() {
            one = format!("error: {}\n", r.message);
        }
        for (theirs, ours) in fixes {
            fix_header(&mut one, theirs, ours);
        }
        out.push_str(&one);
        if let Some(fix) = fix {
            out.push_str(&fix_diff(sources, fix));
        }
        out.push('\n');
    }
    if !options.quiet {
        out.push_str(&summary(outcome));
    }
    out
}

/// A fix under its finding's help: what it does and how far it can be
/// trusted, then the lines it changes, old (`-`) and new (`+`), each line
/// shown [`visible`]. Lines too long for an excerpt are not shown.
fn fix_diff(sources: &SourceMap, fix: &Fix) -> String {
    let mut out = format!(
        "  fix ({}): {}\n",
        applicability(fix.applicability),
        visible(&fix.message)
    );
    let mut files: Vec<FileId> = fix.edits.iter().map(|e| e.span.file).collect();
    files.sort_unstable();
    files.dedup();
    for &file in &files {
        let source = sources.get(file);
        if files.len() > 1 {
            out.push_str(&format!("    in {}\n", visible(&source.display)));
        }
        let edits: Vec<&Edit> = fix.edits.iter().filter(|e| e.span.file == file).collect();
        for (first, last) in hunks(source, &edits) {
            let (start, end) = (source.text_start(first), source.line_start(last + 1));
            if !excerpt_fits(source, start, end) {
                out.push_str("    (the lines it changes are too long to show)\n");
                continue;
            }
            let inside = edits
                .iter()
                .filter(|e| e.span.start >= start && e.span.end <= end);
            let shifted: Vec<Edit> = inside
                .map(|e| Edit {
                    span: Span {
                        start: e.span.start - start,
                        end: e.span.end - start,
                        ..e.span
                    },
                    replacement: e.replacement.clone(),
                })
                .collect();
            let old = &source.text[start..end];
            let Ok(new) = fix::apply(old, &shifted.iter().collect::<Vec<_>>()) else {
                continue;
            };
            let width = (last + 1).to_string().len();
            for (n, line) in (first..).zip(old.lines()) {
                out.push_str(&format!("  {n:>width$} - {}\n", shown_line(line)));
            }
            for line in new.lines() {
                out.push_str(&format!("  {:>width$} + {}\n", "", shown_line(line)));
            }
        }
    }
    out
}

/// A source line in a diff: tabs laid out as spaces (they are layout, not a
/// character to point out), everything else hidden shown [`visible`].
fn shown_line(line: &str) -> String {
    visible(&line.trim_end_matches('\r').replace('\t', "    ")).into_owned()
}

/// The runs of lines the edits of one file touch, as (first, last) lines,
/// edits on the same or adjacent lines in one run. An edit that ends at the
/// start of a line (a whole line deleted, line break included) touches the
/// line before only.
fn hunks(source: &SourceFile, edits: &[&Edit]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for e in edits {
        let first = source.line(e.span.start);
        let last = if e.span.end > e.span.start {
            source.line(e.span.end - 1)
        } else {
            first
        };
        match out.last_mut() {
            Some((_, end)) if first <= *end + 1 => *end = (*end).max(last),
            _ => out.push((first, last)),
        }
    }
    out
}

/// Replaces `theirs` (`path:line:column`) in the first excerpt header that
/// holds it: right after `─[`, or after the color miette gives it there.
fn fix_header(report: &mut String, theirs: &str, ours: &str) {
    let in_header = |i: usize| {
        let before = &report[..i];
        let line = &before[before.rfind('\n').map_or(0, |n| n + 1)..];
        let after = &report[i + theirs.len()..];
        line.contains("─[")
            && (before.ends_with('[') || before.ends_with('m'))
            && (after.starts_with(']') || after.starts_with('\x1b'))
    };
    if let Some(i) = report
        .match_indices(theirs)
        .map(|(i, _)| i)
        .find(|&i| in_header(i))
    {
        report.replace_range(i..i + theirs.len(), ours);
    }
}

/// Labels further than this many lines from the finding get their own excerpt.
const MAX_EXCERPT_GAP: usize = 8;

/// The closing line of the human report.
fn summary(outcome: &Outcome) -> String {
    let findings = outcome.diagnostics.len();
    let mut files: Vec<u32> = outcome.diagnostics.iter().map(|d| d.span.file).collect();
    files.sort_unstable();
    files.dedup();
    let checked = super::files_checked(outcome);
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

#[cfg(test)]
mod tests {
    use super::*;
    use miette::SourceCode;

    /// What miette reads of every span of a few texts, with every context,
    /// is what it reads of the whole text.
    #[test]
    fn lines_read_as_the_whole_text_is_read() {
        let texts = [
            "a\nbb\nccc\n\ndddd\neeeee\nf",
            "one\r\ntwo\r\n\r\nthree\rfour\n\nfive\r\n",
            "\n\n\nx\n\n\ny\n",
            "no line break",
        ];
        for text in texts {
            let lines = Lines {
                text: Arc::from(text),
                starts: Lines::starts(text),
            };
            for start in 0..=text.len() {
                for end in start..=text.len() {
                    let span = miette::SourceSpan::new(start.into(), end - start);
                    for (before, after) in [(0, 0), (1, 1), (2, 0), (0, 3), (4, 4)] {
                        let whole = text.as_bytes().read_span(&span, before, after);
                        let ours = lines.read_span(&span, before, after);
                        let show = |r: Result<Box<dyn miette::SpanContents<'_> + '_>, _>| {
                            r.map(|c| {
                                (
                                    c.data().to_vec(),
                                    *c.span(),
                                    c.line(),
                                    c.column(),
                                    c.line_count(),
                                )
                            })
                            .map_err(|e: miette::MietteError| e.to_string())
                        };
                        assert_eq!(
                            show(ours),
                            show(whole),
                            "{text:?} {start}..{end} {before} {after}"
                        );
                    }
                }
            }
        }
    }
}
