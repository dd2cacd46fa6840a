//! SARIF 2.1.0, as GitHub code scanning accepts it.

use std::io::Write;

use serde_json::{Value, json};

use crate::lints::LINTS;
use crate::model::diagnostic::{Fix, Severity, Span};
use crate::run::Outcome;
use std::path::Path;

use crate::model::source::{FileId, SourceMap};
use crate::report::{applicability, positions, relative_to};

pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
pub const INFORMATION_URI: &str = crate::model::lint_id::REPOSITORY_URL;

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// Percent-encode what may not stand in a URI path.
fn encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Relative to `%SRCROOT%` (the repository root) when inside it, else an
/// absolute `file://` URI.
fn artifact(sources: &SourceMap, file: FileId, root: &Path) -> Value {
    let path = &sources.get(file).path;
    match relative_to(path, root) {
        Some(rel) => json!({ "uri": encode(&rel), "uriBaseId": "%SRCROOT%" }),
        None => {
            let abs = std::path::absolute(path).unwrap_or_else(|_| path.clone());
            json!({ "uri": format!("file://{}", encode(&abs.to_string_lossy().replace('\\', "/"))) })
        }
    }
}

/// The rule's human name: `duplicate_registration` -> `DuplicateRegistration`
/// (SARIF wants it to differ from the opaque id).
fn rule_name(id: &str) -> String {
    id.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

fn region(sources: &SourceMap, span: Span) -> Value {
    let (start, end) = positions(sources, span);
    json!({
        "startLine": start.line,
        "startColumn": start.column,
        "endLine": end.line,
        "endColumn": end.column,
        "byteOffset": span.start,
        "byteLength": span.end - span.start,
    })
}

fn location(sources: &SourceMap, span: Span, root: &Path) -> Value {
    json!({
        "physicalLocation": {
            "artifactLocation": artifact(sources, span.file, root),
            "region": region(sources, span),
        }
    })
}

/// A finding's fix as SARIF's `fixes`: one change per file, each edit a
/// replacement of a region. SARIF has no word for how safe a fix is: it
/// is said in the description and in the fix's properties.
fn fixes(sources: &SourceMap, fix: &Fix, root: &Path) -> Value {
    let mut by_file: Vec<(FileId, Vec<Value>)> = Vec::new();
    for e in &fix.edits {
        let replacement = json!({
            "deletedRegion": region(sources, e.span),
            "insertedContent": { "text": e.replacement },
        });
        match by_file.iter_mut().find(|(f, _)| *f == e.span.file) {
            Some((_, replacements)) => replacements.push(replacement),
            None => by_file.push((e.span.file, vec![replacement])),
        }
    }
    let changes: Vec<Value> = by_file
        .into_iter()
        .map(|(file, replacements)| {
            json!({
                "artifactLocation": artifact(sources, file, root),
                "replacements": replacements,
            })
        })
        .collect();
    let applicability = applicability(fix.applicability);
    json!([{
        "description": { "text": format!("{} ({applicability} fix)", fix.message) },
        "artifactChanges": changes,
        "properties": { "applicability": applicability },
    }])
}

/// The "What it does" section of a lint's README, as plain text.
fn full_description(docs: &str) -> String {
    let Some(start) = docs.find("## What it does") else {
        return docs.to_string();
    };
    let body = &docs[start + "## What it does".len()..];
    let end = body.find("\n## ").unwrap_or(body.len());
    body[..end].trim().to_string()
}

/// The SARIF log as text (what [`write`] writes).
pub fn render(outcome: &Outcome, root: &Path) -> String {
    let mut out = Vec::new();
    write(outcome, root, &mut out).expect("a Vec takes every byte");
    String::from_utf8(out).expect("JSON is UTF-8")
}

/// Where the results go in the log before they are written: a string no
/// other value of the log can be written as after `"results": ` (a
/// string's quotes and control characters are escaped).
const RESULTS: &str = "\u{1}";

/// Write the SARIF log to `out`, each result made and written in turn: a
/// log of 100,000 findings was made whole in memory first, as values (4.5
/// GiB), then as text. The same text as one pretty JSON document.
pub fn write(outcome: &Outcome, root: &Path, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let sources = &outcome.sources;
    let rules: Vec<Value> = LINTS
        .iter()
        .map(|l| {
            json!({
                "id": l.name(),
                "name": rule_name(l.name()),
                "shortDescription": { "text": l.summary },
                "fullDescription": { "text": full_description(l.docs) },
                "help": { "text": l.docs, "markdown": l.docs },
                "helpUri": l.id.docs_url(),
                // SARIF's word for a rule that is off is "none".
                "defaultConfiguration": { "level": l.id.default_level().severity().map_or("none", level) },
            })
        })
        .collect();
    let fingerprints = super::fingerprints(outcome, root);
    let results = (outcome.diagnostics.iter())
        .zip(fingerprints)
        .map(|(d, fingerprint)| {
            let mut message = d.message.clone();
            if let Some(help) = &d.help {
                message.push_str("\nhelp: ");
                message.push_str(help);
            }
            let mut result = json!({
                "ruleId": d.lint.name(),
                // The rules are `LINTS`, whose order is the ids'.
                "ruleIndex": d.lint.index(),
                "level": level(d.severity),
                "message": { "text": message },
                "locations": [location(sources, d.span, root)],
                "relatedLocations": d.labels.iter().enumerate().map(|(i, l)| {
                    let mut loc = location(sources, l.span, root);
                    loc["id"] = json!(i + 1);
                    loc["message"] = json!({ "text": l.message });
                    loc
                }).collect::<Vec<_>>(),
                "partialFingerprints": { "primaryLocationLineHash": fingerprint },
            });
            if let Some(fix) = &d.fix {
                result["fixes"] = fixes(sources, fix, root);
            }
            result
        });
    // Files not analysed fail the run; skipped files do not: a warning.
    let errors = outcome.errors.iter().map(|e| (e, "error"));
    let skipped = outcome.skipped.iter().map(|e| (e, "warning"));
    let notifications: Vec<Value> = errors
        .chain(skipped)
        .map(|(e, level)| {
            let mut n = json!({
                "level": level,
                "message": { "text": e.message },
                "locations": [{ "physicalLocation": { "artifactLocation": artifact(sources, e.file, root) } }],
            });
            if let Some(span) = e.span {
                n["locations"] = json!([location(sources, span, root)]);
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
            "originalUriBaseIds": {
                "%SRCROOT%": { "uri": format!("file://{}/", encode(root.to_string_lossy().replace('\\', "/").trim_end_matches('/'))) }
            },
            "invocations": [{
                "executionSuccessful": outcome.errors.is_empty(),
                "toolExecutionNotifications": notifications,
            }],
            "results": RESULTS,
        }]
    });
    let skeleton = crate::model::text::json_document(&sarif);
    let marker = format!("\"results\": {}", serde_json::to_string(RESULTS)?);
    let (head, tail) = skeleton
        .split_once(&marker)
        .expect("the log holds the marker once");
    let mut out = std::io::BufWriter::new(out);
    out.write_all(head.as_bytes())?;
    out.write_all(b"\"results\": [")?;
    // The results are items of `runs[0].results`: 8 spaces in.
    let mut first = true;
    for result in results {
        out.write_all(if first { b"\n" } else { b",\n" })?;
        first = false;
        let text = crate::model::text::json_document(&result);
        for (i, line) in text.trim_end_matches('\n').split('\n').enumerate() {
            if i > 0 {
                out.write_all(b"\n")?;
            }
            out.write_all(b"        ")?;
            out.write_all(line.as_bytes())?;
        }
    }
    out.write_all(if first { b"]" } else { b"\n      ]" })?;
    out.write_all(tail.as_bytes())?;
    out.flush()
}
