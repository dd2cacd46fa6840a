//! GitLab Code Quality report: a JSON array of issues (the format of
//! `artifacts: reports: codequality`). Fingerprints are those of the SARIF
//! report: stable across unrelated edits, so GitLab matches issues between
//! branches.

use std::path::Path;

use serde_json::{Value, json};

use crate::model::diagnostic::Severity;
use crate::report::{Fingerprints, ci_path};
use crate::run::Outcome;

pub fn render(outcome: &Outcome, root: &Path) -> String {
    let sources = &outcome.sources;
    let mut fingerprints = Fingerprints::default();
    let mut issues: Vec<Value> = Vec::new();
    for d in &outcome.diagnostics {
        let file = sources.get(d.span.file);
        let (start, end) = (file.line_col(d.span.start), file.line_col(d.span.end));
        let path = ci_path(sources, d.span.file, root);
        let fingerprint = fingerprints.of_line(d.lint, &path, file, d.span.file, start.line);
        let mut description = d.message.clone();
        if let Some(help) = &d.help {
            description.push_str("; help: ");
            description.push_str(help);
        }
        issues.push(json!({
            "type": "issue",
            "check_name": d.lint.name(),
            "description": description,
            "categories": ["Bug Risk"],
            "severity": match d.severity {
                Severity::Error => "major",
                Severity::Warning => "minor",
            },
            "fingerprint": fingerprint,
            "location": {
                "path": path,
                "lines": { "begin": start.line, "end": end.line },
            },
        }));
    }
    // Files not analysed fail the run; skipped files do not: for information.
    let errors = outcome
        .errors
        .iter()
        .map(|e| (e, "not_analysed", "blocker"));
    let skipped = outcome.skipped.iter().map(|e| (e, "skipped", "info"));
    for (e, check, severity) in errors.chain(skipped) {
        let path = ci_path(sources, e.file, root);
        let line = e
            .span
            .map(|s| sources.get(e.file).line_col(s.start).line)
            .unwrap_or(1);
        issues.push(json!({
            "type": "issue",
            "check_name": format!("backend_lint::{check}"),
            "description": e.message,
            "categories": ["Bug Risk"],
            "severity": severity,
            "fingerprint": fingerprints.next(check, &path, ""),
            "location": { "path": path, "lines": { "begin": line } },
        }));
    }
    crate::model::text::json_document(&issues)
}
