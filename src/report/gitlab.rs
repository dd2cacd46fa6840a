//! GitLab Code Quality report: a JSON array of issues (the format of
//! `artifacts: reports: codequality`).

use std::path::Path;

use serde_json::{Value, json};

use crate::diagnostic::Severity;
use crate::engine::Outcome;
use crate::report::ci_path;

/// Stable across runs and unrelated edits: lint, path, text of the line and
/// a counter for equal lines (GitLab matches issues between branches by it).
fn fingerprint(parts: &[&str], n: u32) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in parts.join("\0").bytes().chain(n.to_le_bytes()) {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

pub fn render(outcome: &Outcome, root: &Path) -> String {
    let sources = &outcome.sources;
    let mut seen: Vec<(String, u32)> = Vec::new();
    let mut issues: Vec<Value> = Vec::new();
    for d in &outcome.diagnostics {
        let file = sources.get(d.span.file);
        let (start, end) = (file.line_col(d.span.start), file.line_col(d.span.end));
        let path = ci_path(sources, d.span.file, root);
        let key = format!("{}\0{path}\0{}", d.lint, file.line_text(start.line).trim());
        let n = match seen.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                seen.push((key.clone(), 0));
                0
            }
        };
        let mut description = d.message.clone();
        if let Some(help) = &d.help {
            description.push_str("; help: ");
            description.push_str(help);
        }
        issues.push(json!({
            "type": "issue",
            "check_name": d.lint,
            "description": description,
            "categories": ["Bug Risk"],
            "severity": match d.severity {
                Severity::Error => "major",
                Severity::Warning => "minor",
            },
            "fingerprint": fingerprint(&[&key], n),
            "location": {
                "path": path,
                "lines": { "begin": start.line, "end": end.line },
            },
        }));
    }
    for e in &outcome.errors {
        let path = ci_path(sources, e.file, root);
        let line = e
            .span
            .map(|s| sources.get(e.file).line_col(s.start).line)
            .unwrap_or(1);
        issues.push(json!({
            "type": "issue",
            "check_name": "backend_lint::not_analysed",
            "description": e.message,
            "categories": ["Bug Risk"],
            "severity": "blocker",
            "fingerprint": fingerprint(&["not_analysed", &path], 0),
            "location": { "path": path, "lines": { "begin": line } },
        }));
    }
    let mut s = serde_json::to_string_pretty(&issues).expect("plain data serializes");
    s.push('\n');
    s
}
