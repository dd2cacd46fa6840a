//! The walk skips a macro whose text names nothing a fact can start from
//! (`Walker::may_hold_facts`): `format!`, `vec!`, `quote!`... are not parsed
//! again. Here every fixture, the demo and sample crates, and the crates of
//! `BACKEND_LINT_CORPUS` (an ignored test), give the same report with the
//! skip as when every macro is walked, in both modes.
//!
//! In a binary of its own: the switch is process-wide.

use backend_lint::analysis::extract::walk_every_macro;
use backend_lint::run::Outcome;

mod common;
use common::{Crate, corpus_crates, differences_between, fixture_crates, run};

fn both(krate: &Crate, prefilter: bool) -> (Outcome, Outcome) {
    walk_every_macro(false);
    let skipping = run(krate, prefilter);
    walk_every_macro(true);
    let every = run(krate, prefilter);
    walk_every_macro(false);
    (skipping, every)
}

/// The switch is process-wide: one test at a time flips it.
static SWITCH: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// How many findings the crates give; every difference between the two
/// walks fails the test.
fn same_reports(crates: &[Crate]) -> usize {
    let _one_at_a_time = SWITCH.lock().unwrap_or_else(|e| e.into_inner());
    let mut failures = Vec::new();
    let mut findings = 0;
    for krate in crates {
        for prefilter in [false, true] {
            let (skipping, every) = both(krate, prefilter);
            findings += every.diagnostics.len();
            let mode = if prefilter {
                "by default"
            } else {
                "with --no-prefilter"
            };
            failures.extend(differences_between(
                &format!("{} ({mode})", krate.name),
                (&skipping, "skipping macros"),
                (&every, "walking every macro"),
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    findings
}

#[test]
fn skipping_macros_without_vocabulary_changes_no_report() {
    let crates = fixture_crates();
    assert!(crates.len() > 40, "fixtures not found");
    let findings = same_reports(&crates);
    // The fixtures have findings inside macros (`assert_eq!`, `matches!`):
    // the comparison is not between two empty reports.
    assert!(findings > 100, "only {findings} findings");
}

#[test]
#[ignore = "reads real code: set BACKEND_LINT_CORPUS"]
fn skipping_macros_changes_no_report_in_the_corpus() {
    same_reports(&corpus_crates());
}
