//! Mutated real files through the whole analysis: never a panic, never an
//! abort, never a hang; every file either analysed or reported as an error.
//!
//! A stable stand-in for the fuzz target (`fuzz/`, `cargo +nightly fuzz run
//! analyze_file`) that runs in every CI: deterministic mutations (a fixed
//! seed) of this repository's own sources and fixtures, the kinds of damage
//! that make parsers misbehave: cut files, unbalanced or repeated brackets,
//! repeated tokens, swapped and deleted ranges, stray quotes and comments.

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use backend_lint::lints::LINTS;
use backend_lint::run::{Input, analyze};

/// xorshift64*: small, deterministic, good enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn seeds() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in [
        "src",
        "src/analysis/extract",
        "lints/duplicate_registration",
        "lints/uncanonicalized_platform_comparison",
        "lints/lowering_backend_mismatch",
        "examples/demo/src",
    ] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "rs"))
            .collect();
        files.sort();
        out.extend(files);
    }
    out
}

/// One mutation of `text`, cut at character boundaries.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let chars: Vec<char> = text.chars().collect();
    let n = chars.len();
    let at = rng.below(n + 1);
    let len = rng.below(200).min(n - at.min(n));
    let snippets = [
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        "<",
        ">",
        "\"",
        "'",
        "r#\"",
        "/*",
        "*/",
        "//",
        "#[cfg(",
        "else if x ",
        "= ",
        "*",
        "&",
        "|x| ",
        "fn() -> ",
        ".m()",
        "register_backend(\"cuda\", f);",
        "// backend-lint: allow(",
        "\u{feff}",
        "\0",
        "é",
    ];
    let mut out: Vec<char> = chars.clone();
    match rng.below(8) {
        // Cut the file short.
        0 => out.truncate(at),
        // Delete a range.
        1 => {
            out.drain(at..at + len);
        }
        // Repeat a range many times (deep or long shapes).
        2 => {
            let piece: Vec<char> = chars[at..at + len.min(20)].to_vec();
            let times = 1 + rng.below(3_000);
            for _ in 0..times {
                out.splice(at..at, piece.iter().copied());
            }
        }
        // Insert a snippet, maybe many times.
        3 | 4 => {
            let s = snippets[rng.below(snippets.len())];
            let times = if rng.below(4) == 0 {
                1 + rng.below(5_000)
            } else {
                1
            };
            let insert: String = s.repeat(times);
            out.splice(at..at, insert.chars());
        }
        // Swap two ranges.
        5 => {
            let other = rng.below(n + 1);
            let (a, b) = (at.min(other), at.max(other));
            let la = len.min(b - a);
            let lb = len.min(n - b);
            let first: Vec<char> = chars[a..a + la].to_vec();
            let second: Vec<char> = chars[b..b + lb].to_vec();
            out.splice(b..b + lb, first);
            out.splice(a..a + la, second);
        }
        // Duplicate a large part of the file in the middle of itself.
        6 => {
            let piece: Vec<char> = chars[at..].to_vec();
            out.splice(at..at, piece);
        }
        // Flip characters.
        _ => {
            for _ in 0..1 + rng.below(20) {
                if !out.is_empty() {
                    let i = rng.below(out.len());
                    out[i] = snippets[rng.below(snippets.len())]
                        .chars()
                        .next()
                        .unwrap_or('x');
                }
            }
        }
    }
    out.into_iter().collect()
}

#[test]
fn mutated_real_files_never_panic_abort_or_hang() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    let mut inputs = Vec::new();
    for (s, seed) in seeds().iter().enumerate() {
        let text = std::fs::read_to_string(seed).unwrap();
        for m in 0..12 {
            let mut mutated = mutate(&text, &mut rng);
            // Sometimes a second mutation on top.
            if rng.below(3) == 0 {
                mutated = mutate(&mutated, &mut rng);
            }
            let name = format!("s{s:02}_m{m:02}.rs");
            let path = dir.path().join(&name);
            std::fs::write(&path, &mutated).unwrap();
            // Each mutant a crate of its own; a few share one, for the crate pass.
            inputs.push(Input::new(
                path,
                name,
                if m < 3 { usize::MAX } else { s * 100 + m },
            ));
        }
    }
    let total = inputs.len();
    assert!(total > 300, "{total} mutants");
    // A hang is a failure too: the analysis must end (a watchdog, not a
    // performance bound: a debug build takes a few seconds for all of them).
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let outcome = analyze(inputs, LINTS);
        let _ = tx.send(outcome);
    });
    let outcome = rx
        .recv_timeout(Duration::from_secs(600))
        .expect("the analysis of the mutants ended (no hang, no panic)");
    assert_eq!(
        outcome.sources.len(),
        total,
        "every mutant is accounted for"
    );
    // Mutations break most files: those are errors with a message, never lost.
    for e in &outcome.errors {
        assert!(!e.message.is_empty());
    }
    assert!(
        !outcome.errors.is_empty() && outcome.errors.len() < total,
        "{} of {total} not analysed: the mutations should break some files and spare others",
        outcome.errors.len()
    );
}

/// Inputs the fuzzer once crashed on (`fuzz/regressions/`), in every CI run.
#[test]
fn fuzzer_finds_stay_fixed() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "no inputs in {}", dir.display());
    for path in inputs {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        let result = std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(move || {
                let _ = backend_lint::run::parse_and_extract(
                    0,
                    &text,
                    &backend_lint::config::Vocabulary::default(),
                );
            })
            .unwrap()
            .join();
        assert!(result.is_ok(), "{} panics", path.display());
    }
}
