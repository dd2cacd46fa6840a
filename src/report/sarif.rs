//! SARIF 2.1.0, as GitHub code scanning accepts it.

use serde_json::{Value, json};

use crate::diagnostic::{Severity, Span};
use crate::engine::Outcome;
use crate::lints::LINTS;
use crate::report::positions;
use crate::source::SourceMap;

pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
pub const INFORMATION_URI: &str = "https://github.com/backend-lint/backend-lint";

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn location(sources: &SourceMap, span: Span) -> Value {
    let (start, end) = positions(sources, span);
    json!({
        "physicalLocation": {
            "artifactLocation": {
                "uri": sources.get(span.file).display,
                "uriBaseId": "%SRCROOT%",
            },
            "region": {
                "startLine": start.line,
                "startColumn": start.column,
                "endLine": end.line,
                "endColumn": end.column,
                "byteOffset": span.start,
                "byteLength": span.end - span.start,
            }
        }
    })
}

/// FNV-1a: small, stable across Rust versions and platforms (unlike `DefaultHasher`).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

pub fn render(outcome: &Outcome) -> String {
    let sources = &outcome.sources;
    let rules: Vec<Value> = LINTS
        .iter()
        .map(|l| {
            json!({
                "id": l.name,
                "name": l.name,
                "shortDescription": { "text": l.summary },
                "fullDescription": { "text": l.summary },
                "help": { "text": l.docs, "markdown": l.docs },
                "helpUri": format!("{INFORMATION_URI}/blob/main/lints/{}/README.md", l.name),
                "defaultConfiguration": { "level": level(l.default_severity) },
            })
        })
        .collect();
    // Fingerprints: the lint, the file and the text of the finding's line,
    // plus a counter for equal lines, so moving unrelated lines keeps them.
    let mut seen: Vec<(String, u32)> = Vec::new();
    let results: Vec<Value> = outcome
        .diagnostics
        .iter()
        .map(|d| {
            let file = sources.get(d.span.file);
            let line = file.line_col(d.span.start).line;
            let basis = format!(
                "{}\0{}\0{}",
                d.lint,
                file.display,
                file.line_text(line).trim()
            );
            let hash = format!("{:016x}", fnv1a(basis.as_bytes()));
            let n = match seen.iter_mut().find(|(h, _)| *h == hash) {
                Some((_, n)) => {
                    *n += 1;
                    *n
                }
                None => {
                    seen.push((hash.clone(), 1));
                    1
                }
            };
            let mut message = d.message.clone();
            if let Some(help) = &d.help {
                message.push_str("\nhelp: ");
                message.push_str(help);
            }
            json!({
                "ruleId": d.lint,
                "ruleIndex": LINTS.iter().position(|l| l.name == d.lint),
                "level": level(d.severity),
                "message": { "text": message },
                "locations": [location(sources, d.span)],
                "relatedLocations": d.labels.iter().enumerate().map(|(i, l)| {
                    let mut loc = location(sources, l.span);
                    loc["id"] = json!(i + 1);
                    loc["message"] = json!({ "text": l.message });
                    loc
                }).collect::<Vec<_>>(),
                "partialFingerprints": { "primaryLocationLineHash": format!("{hash}:{n}") },
            })
        })
        .collect();
    let notifications: Vec<Value> = outcome
        .errors
        .iter()
        .map(|e| {
            let mut n = json!({
                "level": "error",
                "message": { "text": e.message },
                "locations": [{ "physicalLocation": { "artifactLocation": {
                    "uri": sources.get(e.file).display, "uriBaseId": "%SRCROOT%" } } }],
            });
            if let Some(span) = e.span {
                n["locations"] = json!([location(sources, span)]);
            }
            n
        })
        .collect();
    let sarif = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": env!("CARGO_PKG_NAME"),
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "informationUri": INFORMATION_URI,
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "invocations": [{
                "executionSuccessful": outcome.errors.is_empty(),
                "toolExecutionNotifications": notifications,
            }],
            "results": results,
        }]
    });
    let mut s = serde_json::to_string_pretty(&sarif).expect("plain data serializes");
    s.push('\n');
    s
}
