//! Throughput of a run, with and without the prefilter, against a bare `syn`
//! parse of the same files, in one process.
//!
//! `cargo bench --bench throughput [-- DIR]` (default DIR: the crates cargo
//! has unpacked in `~/.cargo/registry/src`, i.e. real Rust code). Prints
//! MB/s, speedups over the bare parse and peak RSS; the numbers in the README
//! come from here.

use std::path::{Path, PathBuf};
use std::time::Instant;

use backend_lint::discover::collect;
use backend_lint::engine::{Input, analyze};
use backend_lint::lints::LINTS;
use rayon::prelude::*;

fn main() {
    let dir = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .unwrap_or_else(default_corpus);
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

    // Warm the page cache so both measurements read from memory.
    let texts: Vec<String> = inputs
        .iter()
        .filter_map(|i| std::fs::read_to_string(&i.path).ok())
        .collect();

    let pool = rayon::ThreadPoolBuilder::new()
        .stack_size(256 << 20)
        .build()
        .unwrap();
    let t = Instant::now();
    let parsed = pool.install(|| {
        texts
            .par_iter()
            .filter(|t| syn::parse_file(t).is_ok())
            .count()
    });
    let bare = t.elapsed().as_secs_f64();
    drop(texts);
    println!(
        "bare syn::parse_file (parallel, in memory): {bare:.2} s, {:.1} MB/s ({parsed} files parsed)",
        mb / bare
    );

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
    let (full, full_outcome) = run(false);
    println!(
        "backend-lint --no-prefilter (read + parse + facts + lints): {full:.2} s, {:.1} MB/s, {:.2}x bare syn, {} findings, {} files not analysed",
        mb / full,
        bare / full,
        full_outcome.diagnostics.len(),
        full_outcome.errors.len()
    );
    let (default, outcome) = run(true);
    println!(
        "backend-lint (default: prefilter, structure-only reading): {default:.2} s, {:.1} MB/s, {:.2}x bare syn, {} findings, {} files not analysed",
        mb / default,
        bare / default,
        outcome.diagnostics.len(),
        outcome.errors.len()
    );
    let same = outcome.diagnostics == full_outcome.diagnostics
        && outcome.errors.len() == full_outcome.errors.len();
    println!("same findings in both modes: {same}");
    // Untimed: how many files the default mode parses, and why.
    let vocab = backend_lint::config::Vocabulary::default();
    let mut parsed = (0usize, 0usize);
    for input in &inputs {
        if let Ok(text) = std::fs::read_to_string(&input.path)
            && backend_lint::prefilter::explain(&text, &vocab).is_err()
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

fn default_corpus() -> PathBuf {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cargo")
        });
    let src = home.join("registry/src");
    std::fs::read_dir(&src)
        .ok()
        .and_then(|mut d| d.next())
        .and_then(|e| e.ok())
        .map(|e| e.path())
        .unwrap_or(src)
}

/// VmHWM from /proc (Linux); `None` elsewhere.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
