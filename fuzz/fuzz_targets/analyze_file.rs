//! Any bytes as a Rust file: the per-file pass (lexical scan, nesting bound,
//! parse, fact extraction, suppression comments) must never panic or abort.
//!
//! `cargo +nightly fuzz run analyze_file` (from the repository root).
#![no_main]

use backend_lint::config::Vocabulary;
use backend_lint::engine::parse_and_extract;
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
            let _ = parse_and_extract(0, &text, &Vocabulary::default());
        })
        .expect("spawn")
        .join()
        .expect("no panic");
});
