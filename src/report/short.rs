//! `path:line:col: severity[lint]: message`, one line per finding.

use std::fmt::Write;

use crate::engine::Outcome;

pub fn render(outcome: &Outcome) -> String {
    let mut out = String::new();
    for e in &outcome.errors {
        let file = outcome.sources.get(e.file);
        match e.span {
            Some(span) => {
                let at = file.line_col(span.start);
                let _ = writeln!(
                    out,
                    "{}:{}:{}: error: {}",
                    file.display, at.line, at.column, e.message
                );
            }
            None => {
                let _ = writeln!(out, "{}: error: {}", file.display, e.message);
            }
        }
    }
    for e in &outcome.skipped {
        let file = outcome.sources.get(e.file);
        let _ = writeln!(out, "{}: warning: skipped: {}", file.display, e.message);
    }
    for d in &outcome.diagnostics {
        let file = outcome.sources.get(d.span.file);
        let at = file.line_col(d.span.start);
        let _ = writeln!(
            out,
            "{}:{}:{}: {}[{}]: {}",
            file.display,
            at.line,
            at.column,
            d.severity.as_str(),
            d.lint,
            d.message
        );
    }
    out
}
