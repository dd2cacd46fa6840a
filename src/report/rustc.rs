//! rustc's JSON diagnostics (`--message-format json`), one object per line:
//! what rust-analyzer reads from `rust-analyzer.check.overrideCommand`.

use serde_json::{Value, json};

use crate::model::diagnostic::{Applicability, Diagnostic, Fix, Severity, Span};
use crate::model::source::SourceMap;
use crate::model::text::{json_line, visible};
use crate::report::{applicability, skipped_message};
use crate::run::Outcome;

/// The longest line quoted in a span's `text`, in bytes.
const MAX_LINE_TEXT: usize = 4096;

/// rustc's word for how far a suggestion can be trusted: what cargo fix
/// (`MachineApplicable` only), rustfix and rust-analyzer's quick fixes read.
fn suggestion_applicability(a: Applicability) -> &'static str {
    match a {
        Applicability::Safe => "MachineApplicable",
        Applicability::Unsafe => "MaybeIncorrect",
        Applicability::DisplayOnly => "Unspecified",
    }
}

fn span(sources: &SourceMap, s: Span, primary: bool, label: &str) -> Value {
    let file = sources.get(s.file);
    let (start, end) = (file.line_col(s.start), file.line_col(s.end));
    // `text`: the lines the span covers, with the highlighted columns
    // (1-based); not a line longer than `MAX_LINE_TEXT` (generated or
    // minified code: a copy per span costs the line times the findings).
    let text: Vec<Value> = (start.line..=end.line)
        .filter(|&line| file.line_text(line).len() <= MAX_LINE_TEXT)
        .map(|line| {
            let t = file.line_text(line);
            let len = t.chars().count() + 1;
            json!({
                "text": t,
                "highlight_start": if line == start.line { start.column } else { 1 },
                "highlight_end": if line == end.line { end.column } else { len },
            })
        })
        .collect();
    json!({
        "file_name": file.display,
        "byte_start": s.start,
        "byte_end": s.end,
        "line_start": start.line,
        "line_end": end.line,
        "column_start": start.column,
        "column_end": end.column,
        "is_primary": primary,
        "text": text,
        "label": if label.is_empty() { Value::Null } else { json!(label) },
        "suggested_replacement": null,
        "suggestion_applicability": null,
        "expansion": null,
    })
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn child(message: &str, level: &str, spans: Vec<Value>) -> Value {
    json!({
        "$message_type": "diagnostic",
        "message": message,
        "code": null,
        "level": level,
        "spans": spans,
        "children": [],
        "rendered": null,
    })
}

/// A fix as rustc writes a suggestion: a `help` child whose spans carry
/// the replacement text and its applicability.
fn suggestion(sources: &SourceMap, fix: &Fix) -> Value {
    let spans = fix
        .edits
        .iter()
        .map(|e| {
            let mut v = span(sources, e.span, true, "");
            v["suggested_replacement"] = json!(e.replacement);
            v["suggestion_applicability"] = json!(suggestion_applicability(fix.applicability));
            v
        })
        .collect();
    child(&fix.message, "help", spans)
}

fn diagnostic(sources: &SourceMap, d: &Diagnostic) -> Value {
    let mut spans = vec![span(sources, d.span, true, &d.label)];
    let mut children = Vec::new();
    for l in &d.labels {
        if l.span.file == d.span.file {
            spans.push(span(sources, l.span, false, &l.message));
        } else {
            // rustc puts labels of other files in a note.
            children.push(child(
                &l.message,
                "note",
                vec![span(sources, l.span, true, "")],
            ));
        }
    }
    if let Some(help) = &d.help {
        children.push(child(help, "help", Vec::new()));
    }
    children.extend(d.fix.iter().map(|fix| suggestion(sources, fix)));
    // Last, as clippy closes each of its lints' diagnostics: editors show
    // a help without spans under the message, and cargo prints `rendered`.
    // (`code.explanation` is rustc's `--explain` text, not a link.)
    let more = format!("for further information visit {}", d.lint.docs_url());
    children.push(child(&more, "help", Vec::new()));
    let file = sources.get(d.span.file);
    let at = file.line_col(d.span.start);
    // `rendered` is printed as it is by cargo and editors: the fields keep
    // the original text, `rendered` shows it visibly, line by line.
    let mut rendered = format!(
        "{}[{}]: {}\n  --> {}:{}:{}\n",
        level(d.severity),
        d.lint,
        visible(&d.message),
        visible(&file.display),
        at.line,
        at.column
    );
    if let Some(help) = &d.help {
        rendered.push_str(&format!("  = help: {}\n", visible(help)));
    }
    if let Some(fix) = &d.fix {
        rendered.push_str(&format!(
            "  = help: {} ({} fix)\n",
            visible(&fix.message),
            applicability(fix.applicability)
        ));
    }
    rendered.push_str(&format!("  = help: {more}\n"));
    json!({
        "$message_type": "diagnostic",
        "message": d.message,
        "code": { "code": format!("backend_lint::{}", d.lint), "explanation": null },
        "level": level(d.severity),
        "spans": spans,
        "children": children,
        "rendered": rendered,
    })
}

pub fn render(outcome: &Outcome) -> String {
    let sources = &outcome.sources;
    let mut out = String::new();
    // Files not analysed fail the run; skipped files do not: a warning.
    let errors = outcome.errors.iter().map(|e| {
        let message = format!("{}: {}", sources.get(e.file).display, e.message);
        (e, "error", message)
    });
    let skipped = outcome
        .skipped
        .iter()
        .map(|e| (e, "warning", skipped_message(sources, e)));
    for (e, level, message) in errors.chain(skipped) {
        let spans = e
            .span
            .map(|s| vec![span(sources, s, true, "")])
            .unwrap_or_default();
        let mut v = child(&message, level, spans);
        v["rendered"] = json!(format!("{level}: {}\n", visible(&message)));
        out.push_str(&json_line(&v));
    }
    for d in &outcome.diagnostics {
        out.push_str(&json_line(&diagnostic(sources, d)));
    }
    out
}
