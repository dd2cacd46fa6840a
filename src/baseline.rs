//! Baselines: the findings a project has accepted for now. `--write-baseline`
//! records them; `--baseline` hides them and reports only new ones.
//!
//! A finding is identified as in SARIF's `partialFingerprints`: the lint, the
//! file (relative to the repository root) and a hash of the text of the line
//! it starts on, numbered when several are alike. Lines moving up or down do
//! not change it; editing the line does.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::model::text::{json_document, visible};
use crate::report;
use crate::run::Outcome;

/// Bumped only on incompatible changes.
const VERSION: u32 = 1;

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Baseline {
    version: u32,
    findings: Vec<Entry>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub lint: String,
    pub path: String,
    pub fingerprint: String,
    /// For people reading the file; not compared.
    pub message: String,
}

/// What applying a baseline did.
#[derive(Debug, Default)]
pub struct Applied {
    /// Findings hidden because the baseline has them.
    pub hidden: usize,
    /// Baseline entries that match no finding any more (fixed, or their line edited).
    pub stale: Vec<Entry>,
}

impl Applied {
    /// A note for stderr.
    pub fn note(&self, path: &Path) -> String {
        let mut out = String::new();
        if self.hidden > 0 {
            out.push_str(&format!(
                "note: {} recorded in the baseline `{}` not shown\n",
                report::plural(self.hidden, "finding"),
                path.display()
            ));
        }
        if !self.stale.is_empty() {
            let (entries, verb) = match self.stale.len() {
                1 => ("1 entry".to_string(), "matches"),
                n => (format!("{n} entries"), "match"),
            };
            out.push_str(&format!(
                "note: {entries} of the baseline {verb} no finding any more (fixed, or the line changed); rewrite it with --write-baseline:\n"
            ));
            // A baseline is committed: its text is the checkout's, shown visibly.
            for e in &self.stale {
                let entry = format!("{}: [{}] {}", e.path, e.lint, e.message);
                out.push_str(&format!("  {}\n", visible(&entry)));
            }
        }
        out
    }
}

fn entries(outcome: &Outcome, root: &Path) -> Vec<Entry> {
    outcome
        .diagnostics
        .iter()
        .zip(report::fingerprints(outcome, root))
        .map(|(d, fingerprint)| Entry {
            lint: d.lint.to_string(),
            path: report::ci_path(&outcome.sources, d.span.file, root),
            fingerprint,
            message: d.message.clone(),
        })
        .collect()
}

/// Record every finding of `outcome`; returns how many.
///
/// No link in a folder of `path` below one of `untrusted` is followed
/// ([`crate::run::atomic::replace_within`]).
pub fn write(
    path: &Path,
    outcome: &Outcome,
    root: &Path,
    untrusted: &[std::path::PathBuf],
) -> Result<usize, String> {
    let findings = entries(outcome, root);
    let n = findings.len();
    let text = json_document(&Baseline {
        version: VERSION,
        findings,
    });
    crate::run::atomic::replace_within(path, untrusted, |out| out.write_all(text.as_bytes()))
        .map_err(|e| format!("cannot write the baseline `{}`: {e}", path.display()))?;
    Ok(n)
}

/// Drop the findings the baseline records (each entry hides one finding).
pub fn apply(path: &Path, outcome: &mut Outcome, root: &Path) -> Result<Applied, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the baseline `{}`: {e}", path.display()))?;
    let baseline: Baseline = serde_json::from_str(&text).map_err(|e| {
        // serde quotes the file (an unknown key): the checkout's text.
        format!(
            "`{}` is not a backend-lint baseline: {} (write one with --write-baseline)",
            path.display(),
            visible(&e.to_string())
        )
    })?;
    if baseline.version != VERSION {
        return Err(format!(
            "the baseline `{}` has version {}; this backend-lint reads version {VERSION}",
            path.display(),
            baseline.version
        ));
    }
    // Each entry hides one finding: entries by identity, taken as matched
    // (a map, not a search per finding: baselines of thousands of entries).
    let mut recorded: HashMap<(&str, &str, &str), Vec<usize>> = HashMap::new();
    for (i, b) in baseline.findings.iter().enumerate().rev() {
        let key = (b.lint.as_str(), b.path.as_str(), b.fingerprint.as_str());
        recorded.entry(key).or_default().push(i);
    }
    let mut matched = vec![false; baseline.findings.len()];
    let current = entries(outcome, root);
    let mut keep = current.iter().map(|e| {
        let key = (e.lint.as_str(), e.path.as_str(), e.fingerprint.as_str());
        match recorded.get_mut(&key).and_then(Vec::pop) {
            Some(i) => {
                matched[i] = true;
                false
            }
            None => true,
        }
    });
    let before = outcome.diagnostics.len();
    outcome.diagnostics.retain(|_| keep.next().unwrap_or(true));
    let hidden = before - outcome.diagnostics.len();
    drop(keep);
    let mut remaining: Vec<Entry> = baseline
        .findings
        .into_iter()
        .zip(matched)
        .filter_map(|(e, matched)| (!matched).then_some(e))
        .collect();
    remaining.sort_by(|a, b| (&a.path, &a.lint).cmp(&(&b.path, &b.lint)));
    Ok(Applied {
        hidden,
        stale: remaining,
    })
}
