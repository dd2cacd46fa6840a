//! GitHub Actions workflow commands: one annotation per finding.

use std::fmt::Write;

use crate::model::text::{markdown_code, markdown_text, visible};
use crate::report::{ci_path, plural, positions};
use crate::run::Outcome;
use std::path::Path;

/// Escaping of a command's message, as the runner unescapes it. Callers show
/// text from the checkout [`visible`] first: the runner would turn its
/// escaped newline back into a line break of the annotation, and the log
/// shows other controls raw; only our own `\nhelp:` may break the message.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escaping of a property value: also `:` and `,`, which delimit properties.
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// The `file` property. A path with a control character is shown
/// [`visible`]: the annotation then names no file of the diff, but the log
/// line holds no control.
fn path_property(path: &str) -> String {
    escape_property(&visible(path))
}

pub fn render(outcome: &Outcome, root: &Path) -> String {
    let sources = &outcome.sources;
    let mut out = String::new();
    // Files not analysed fail the run; skipped files do not: a warning.
    let errors = outcome
        .errors
        .iter()
        .map(|e| (e, "error", "file not analysed"));
    let skipped = outcome
        .skipped
        .iter()
        .map(|e| (e, "warning", "file skipped"));
    for (e, level, title) in errors.chain(skipped) {
        let file = sources.get(e.file);
        let mut props = format!("file={}", path_property(&ci_path(sources, e.file, root)));
        if let Some(span) = e.span {
            let at = file.line_col(span.start);
            let _ = write!(props, ",line={},col={}", at.line, at.column);
        }
        let _ = writeln!(
            out,
            "::{level} {props},title={}::{}",
            escape_property(&format!("backend-lint: {title}")),
            escape_data(&visible(&e.message))
        );
    }
    for d in &outcome.diagnostics {
        let (start, end) = positions(sources, d.span);
        let mut props = format!(
            "file={},line={},endLine={}",
            path_property(&ci_path(sources, d.span.file, root)),
            start.line,
            end.line
        );
        // GitHub ignores columns of multi-line annotations; give them only on one line.
        if start.line == end.line {
            let _ = write!(props, ",col={},endColumn={}", start.column, end.column);
        }
        let level = match d.severity {
            crate::model::diagnostic::Severity::Error => "error",
            crate::model::diagnostic::Severity::Warning => "warning",
        };
        let mut message = visible(&d.message).into_owned();
        if let Some(help) = &d.help {
            message.push_str("\nhelp: ");
            message.push_str(&visible(help));
        }
        let _ = writeln!(
            out,
            "::{level} {props},title={}::{}",
            escape_property(&format!("backend-lint: {}", d.lint)),
            escape_data(&message)
        );
    }
    // GitHub shows at most 10 annotations of a kind per step: say how many there are.
    let _ = writeln!(
        out,
        "::notice title=backend-lint::{}",
        escape_data(&format!(
            "{}, {} not analysed, {} checked",
            super::count_by_severity(&outcome.diagnostics),
            plural(outcome.errors.len(), "file"),
            plural(super::files_checked(outcome), "file")
        ))
    );
    out
}

/// The Markdown table appended to `$GITHUB_STEP_SUMMARY`: every finding,
/// since annotations show only the first ten.
pub fn step_summary(outcome: &Outcome, root: &Path) -> String {
    let sources = &outcome.sources;
    let mut out = format!(
        "### backend-lint: {}\n\n",
        plural(outcome.diagnostics.len(), "finding")
    );
    if !outcome.diagnostics.is_empty() {
        out.push_str("| location | lint | message |\n|---|---|---|\n");
        for d in &outcome.diagnostics {
            let at = sources.get(d.span.file).line_col(d.span.start);
            let location = format!(
                "{}:{}:{}",
                ci_path(sources, d.span.file, root),
                at.line,
                at.column
            );
            let _ = writeln!(
                out,
                "| {} | `{}` | {} |",
                markdown_code(&location),
                d.lint,
                markdown_text(&d.message)
            );
        }
    }
    let errors = outcome.errors.iter().map(|e| (e, "not analysed"));
    let skipped = outcome.skipped.iter().map(|e| (e, "skipped"));
    for (e, what) in errors.chain(skipped) {
        let _ = writeln!(
            out,
            "\n**{what}**: {}: {}",
            markdown_code(&ci_path(sources, e.file, root)),
            markdown_text(&e.message)
        );
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_as_the_runner_expects() {
        assert_eq!(escape_data("50% a\r\nb"), "50%25 a%0D%0Ab");
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
    }
}
