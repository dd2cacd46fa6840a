//! The walk skips a macro whose text names nothing a fact can start from
//! (`Walker::may_hold_facts`): `format!`, `vec!`, `quote!`... are not parsed
//! again. Here every fixture, the demo and sample crates, and the runtimes of
//! `/work/corpus` when it exists, give the same report with the skip as when
//! every macro is walked, in both modes.
//!
//! One test in its own binary: the switch is process-wide.

use backend_lint::analysis::extract::walk_every_macro;
use backend_lint::engine::Outcome;

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

#[test]
fn skipping_macros_without_vocabulary_changes_no_report() {
    let mut crates = fixture_crates();
    assert!(crates.len() > 40, "fixtures not found");
    crates.extend(corpus_crates().unwrap_or_default());
    let mut failures = Vec::new();
    let mut findings = 0;
    for krate in &crates {
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
    // The fixtures have findings inside macros (`assert_eq!`, `matches!`):
    // the comparison is not between two empty reports.
    assert!(findings > 100, "only {findings} findings");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
