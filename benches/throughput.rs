//! Throughput of a run, with and without the prefilter, against a bare `syn`
//! parse of the same files, in one process.
//!
//! `cargo bench --bench throughput [-- DIR]` (default DIR: the crates cargo
//! has unpacked in `~/.cargo/registry/src`, i.e. real Rust code). Prints
//! MB/s, speedups over the bare parse and peak RSS; the numbers in the README
//! come from here. The three are measured in `BENCH_ROUNDS` interleaved
//! rounds (default 3) and the best times compared.

use std::path::{Path, PathBuf};
use std::time::Instant;

use backend_lint::lints::LINTS;
use backend_lint::run::discover::collect;
use backend_lint::run::{Input, analyze};
use rayon::prelude::*;

mod common;
use common::{bare_parse, big_stack_pool, peak_rss_kib, registry_corpus};

fn main() {
    let dir = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .unwrap_or_else(registry_corpus);
    let (inputs, _) = collect(std::slice::from_ref(&dir), Path::new("/"));
    let bytes: u64 = inputs
        .iter()
        .filter_map(|i| std::fs::metadata(&i.path).ok())
        .map(|m| m.len())
        .sum();
    let mb = bytes as f64 / 1e6;
    println!(
        "corpus: {} ({} files, {mb:.1} MB)",
        dir.display(),
        inputs.len()
    );

    // Warm the page cache so every measurement reads from memory.
    let texts: Vec<String> = inputs
        .iter()
        .filter_map(|i| std::fs::read_to_string(&i.path).ok())
        .collect();

    let pool = big_stack_pool();
    let bare = || {
        let t = Instant::now();
        let parsed = bare_parse(&pool, &texts);
        (t.elapsed().as_secs_f64(), parsed)
    };
    // Only reading the files (open, read, UTF-8 check) in parallel: the
    // floor of any run that reads them, which the bare parse (texts in
    // memory) does not pay.
    let read_only = || {
        let t = Instant::now();
        pool.install(|| {
            inputs
                .par_iter()
                .filter(|i| std::fs::read_to_string(&i.path).is_ok())
                .count()
        });
        t.elapsed().as_secs_f64()
    };
    // The same files, every one parsed (`--no-prefilter`), then in the
    // default mode, where files without the vocabulary are only read for
    // their items.
    let run = |prefilter: bool| {
        let inputs: Vec<Input> = inputs
            .iter()
            .cloned()
            .map(|i| Input { prefilter, ..i })
            .collect();
        let t = Instant::now();
        let outcome = analyze(inputs, LINTS);
        (t.elapsed().as_secs_f64(), outcome)
    };
    // Rounds, interleaved, so that a slow moment of a shared machine falls
    // on all three; the best time of each is compared, and the medians.
    let rounds: usize = std::env::var("BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3)
        .max(1);
    // `BENCH_ONLY=bare|full|default`: that measurement alone, once (or
    // `BENCH_ROUNDS` times, each time printed), for a count of instructions
    // that a busy machine does not blur (`valgrind --tool=callgrind` of
    // each, minus that of `BENCH_ONLY=none`) or for times of one mode.
    if let Ok(only) = std::env::var("BENCH_ONLY") {
        let times = std::env::var("BENCH_ROUNDS").map_or(1, |_| rounds);
        for _ in 0..times {
            match only.as_str() {
                "bare" => {
                    let (t, n) = bare();
                    println!("bare syn: {t:.3} s, {n} files parsed");
                }
                "full" | "default" => {
                    let (t, outcome) = run(only == "default");
                    println!("{only}: {t:.3} s, {} findings", outcome.diagnostics.len());
                }
                _ => println!("setup only"),
            }
        }
        return;
    }
    let (mut bare_times, mut full_times, mut default_times) = (vec![], vec![], vec![]);
    let mut read_times = vec![];
    let mut parsed = 0;
    let mut outcomes = None;
    for round in 1..=rounds {
        // Every other round in the opposite order, so that no measurement
        // always follows the same one (a shared machine slows down after
        // seconds of full load).
        let (b, n, f, full_outcome, d, outcome, r);
        if round % 2 == 1 {
            (b, n) = bare();
            (f, full_outcome) = run(false);
            (d, outcome) = run(true);
            r = read_only();
        } else {
            r = read_only();
            (d, outcome) = run(true);
            (f, full_outcome) = run(false);
            (b, n) = bare();
        }
        println!(
            "round {round}: bare syn {b:.2} s, --no-prefilter {f:.2} s, default {d:.2} s, reading only {r:.2} s"
        );
        read_times.push(r);
        bare_times.push(b);
        full_times.push(f);
        default_times.push(d);
        parsed = n;
        outcomes = Some((full_outcome, outcome));
    }
    drop(texts);
    let (full_outcome, outcome) = outcomes.expect("one round at least");
    let best = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let bare = best(&bare_times);
    println!(
        "bare syn::parse_file (parallel, in memory): best {bare:.2} s (median {:.2} s), {:.1} MB/s ({parsed} files parsed)",
        median(&mut bare_times),
        mb / bare
    );
    let full = best(&full_times);
    println!(
        "backend-lint --no-prefilter (read + parse + facts + lints): best {full:.2} s (median {:.2} s), {:.1} MB/s, {:.2}x bare syn, {} findings, {} files not analysed",
        median(&mut full_times),
        mb / full,
        bare / full,
        full_outcome.diagnostics.len(),
        full_outcome.errors.len()
    );
    let default = best(&default_times);
    println!(
        "backend-lint (default: prefilter, structure-only reading): best {default:.2} s (median {:.2} s), {:.1} MB/s, {:.2}x bare syn, {} findings, {} files not analysed",
        median(&mut default_times),
        mb / default,
        bare / default,
        outcome.diagnostics.len(),
        outcome.errors.len()
    );
    println!(
        "reading the files only (parallel): best {:.2} s, {:.1}x faster than bare syn",
        best(&read_times),
        bare / best(&read_times)
    );
    let same = outcome.diagnostics == full_outcome.diagnostics
        && outcome.errors.len() == full_outcome.errors.len();
    println!("same findings in both modes: {same}");
    // Untimed: how many files the default mode parses (the lexer finds
    // where a fact may start, or cannot read them; files of a crate read for
    // its structure whose items the reader gives up on are parsed too).
    let vocab = backend_lint::config::Vocabulary::default();
    let mut parsed = (0usize, 0usize);
    for input in &inputs {
        if let Ok(text) = std::fs::read_to_string(&input.path)
            && !backend_lint::prefilter::lexes_quietly(&text, &vocab)
        {
            parsed.0 += 1;
            parsed.1 += text.len();
        }
    }
    println!(
        "default mode parsed {} of {} files in full ({:.1}% of the bytes)",
        parsed.0,
        inputs.len(),
        100.0 * parsed.1 as f64 / bytes as f64
    );
    if let Some(rss) = peak_rss_kib() {
        println!("peak RSS: {:.0} MiB", rss as f64 / 1024.0);
    }
}
