//! `path:line:col: severity[lint]: message`, one line per finding.

use crate::model::diagnostic::Applicability;
use crate::model::text::visible;
use crate::run::Outcome;

pub fn render(outcome: &Outcome) -> String {
    let mut out = String::new();
    // Each line is composed, then shown visibly as a whole: a path or a
    // quoted key cannot end it early (our own text has no controls).
    let mut line = |text: String| {
        out.push_str(&visible(&text));
        out.push('\n');
    };
    for e in &outcome.errors {
        let file = outcome.sources.get(e.file);
        match e.span {
            Some(span) => {
                let at = file.line_col(span.start);
                line(format!(
                    "{}:{}:{}: error: {}",
                    file.display, at.line, at.column, e.message
                ));
            }
            None => line(format!("{}: error: {}", file.display, e.message)),
        }
    }
    for e in &outcome.skipped {
        let file = outcome.sources.get(e.file);
        line(format!("{}: warning: skipped: {}", file.display, e.message));
    }
    for d in &outcome.diagnostics {
        let file = outcome.sources.get(d.span.file);
        let at = file.line_col(d.span.start);
        // `[*]`: `--fix` fixes it, as ruff marks its findings.
        let fixable = d
            .fix
            .as_ref()
            .is_some_and(|f| f.applicability == Applicability::Safe);
        line(format!(
            "{}:{}:{}: {}[{}]: {}{}",
            file.display,
            at.line,
            at.column,
            d.severity.as_str(),
            d.lint,
            if fixable { "[*] " } else { "" },
            d.message
        ));
    }
    out
}
