//! Any bytes as a Rust file: the per-file pass (lexical scan, nesting bound,
//! parse, fact extraction, suppression comments) and the prefilter's checks
//! must never panic or abort, and the prefilter must agree with the parse:
//! a file its lexer accepts tokenizes and is within the nesting bounds, and
//! a file its text check calls quiet has no fact a finding can come from,
//! its fast path (`simd::skim`) accepts and rejects what its lexer does, and
//! leaving out the bodies that hold nothing to record changes no fact.
//! The fixes of the findings, applied as `--fix` applies them (every fix,
//! display-only ones too), leave a file that still parses.
//!
//! `cargo +nightly fuzz run analyze_file` (from the repository root).
#![no_main]

use backend_lint::config::Vocabulary;
use backend_lint::run::parse_and_extract;
use backend_lint::prefilter;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let text = text.to_string();
    // As in a real run: on a thread with the engine's large stack.
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let vocab = Vocabulary::default();
            let full = parse_and_extract(0, &text, &vocab);
            let quiet = prefilter::quiet(&text, &vocab);
            let lexes = quiet && prefilter::lexes(&text);
            let lexes_quietly = prefilter::lexes_quietly(&text, &vocab);
            // The engine lexes a quiet file as any other, with one search for
            // stems, `concat` and suppression comments.
            assert!(!quiet || lexes == lexes_quietly, "a quiet file lexed differently");
            let survey = prefilter::survey(&text, &vocab);
            assert_eq!(survey.lexes, lexes_quietly, "surveyed and lexed differently");
            let directives = backend_lint::syntax::comments::scan(0, &text);
            assert!(
                survey.directives || (directives.directives.is_empty() && directives.malformed.is_empty()),
                "a suppression comment the survey missed"
            );
            let structure = prefilter::explain(&text, &vocab).is_ok();
            if let Err(diff) = prefilter::skim_agrees(&text, &vocab) {
                panic!("the fast path and the lexer disagree: {diff}");
            }
            // The comments the full parse blanks docs from are comments.
            assert!(
                prefilter::skim_comments_agree(&text),
                "the skim and the scan disagree on comments"
            );
            // Bodies left out before a full parse change no fact there.
            if let Some(reduced) = prefilter::without_quiet_bodies(&text, &vocab) {
                assert_eq!(reduced.len(), text.len(), "bodies left out moved offsets");
                if let Ok(facts) = &full {
                    let mine = parse_and_extract(0, &reduced, &vocab)
                        .expect("what is left of a file that parses parses");
                    let at = |f: &backend_lint::model::facts::FileFacts| {
                        let mut spans: Vec<_> = f.registrations.iter().map(|r| r.call_span).collect();
                        spans.extend(f.comparisons.iter().flat_map(|c| c.sides.iter().map(|s| s.span)));
                        spans.extend(f.lowering_platforms.iter().flat_map(|l| l.1.iter().map(|p| p.1)));
                        (spans, f.lowering.len(), f.consts.len(), f.uses.len(), f.types.clone())
                    };
                    assert_eq!(at(&mine), at(facts), "bodies left out changed the facts");
                }
            }
            if let Ok(facts) = &full {
                fixes_keep_it_parsing(&text, facts, &vocab);
            }
            match &full {
                Err(e) if lexes || lexes_quietly || structure => assert!(
                    !(e.message.contains("does not tokenize") || e.message.contains("nests")
                        || e.message.contains(" in one expression")),
                    "the prefilter's lexer accepts what does not tokenize: {}",
                    e.message
                ),
                // Suppression comments are looked for apart (`quiet` sees them).
                Ok(facts) if quiet || lexes_quietly => assert!(
                    facts.registrations.is_empty()
                        && facts.comparisons.is_empty()
                        && facts.lowering.is_empty()
                        && facts.lowering_platforms.is_empty()
                        && (!quiet || !facts.may_be_reported()),
                    "quiet, yet the walker finds facts"
                ),
                _ => {}
            }
        })
        .expect("spawn")
        .join()
        .expect("no panic");
});

/// The lints over the file as a crate of its own; their fixes applied in
/// passes of non-overlapping ones as the runner does (one pass here); the
/// result parses, or only fails the nesting bounds a fix can cross.
fn fixes_keep_it_parsing(text: &str, facts: &backend_lint::model::facts::FileFacts, vocab: &Vocabulary) {
    use backend_lint::lints::{Check, LINTS};
    use backend_lint::model::fix::{apply, non_overlapping};
    let krate = backend_lint::analysis::CrateFacts::new(
        vec![(0, std::path::Path::new("lib.rs"), facts)],
        vocab,
        None,
    );
    let mut found = Vec::new();
    for lint in LINTS {
        if let Check::Crate(check) = lint.check {
            check(&krate, &mut found);
        }
    }
    let fixes = non_overlapping(found.iter().filter_map(|d| d.fix.as_ref()));
    let edits: Vec<_> = fixes.iter().flat_map(|f| &f.edits).collect();
    if edits.is_empty() {
        return;
    }
    let fixed = apply(text, &edits).expect("the edits of one pass apply");
    if let Err(e) = parse_and_extract(0, &fixed, vocab) {
        assert!(
            e.message.contains("nests") || e.message.contains(" in one expression"),
            "fixed text does not parse: {}\n{fixed}",
            e.message
        );
    }
}
