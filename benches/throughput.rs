//! Throughput of a full run against a bare `syn` parse of the same files.
//!
//! `cargo bench --bench throughput [-- DIR]` (default DIR: the crates cargo
//! has unpacked in `~/.cargo/registry/src`, i.e. real Rust code). Prints
//! MB/s and peak RSS; the numbers in the README come from here.

use std::path::{Path, PathBuf};
use std::time::Instant;

use backend_lint::discover::collect;
use backend_lint::engine::analyze;
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

    let t = Instant::now();
    let outcome = analyze(inputs, LINTS);
    let full = t.elapsed().as_secs_f64();
    println!(
        "backend-lint (read + parse + facts + lints): {full:.2} s, {:.1} MB/s, {} findings, {} files not analysed",
        mb / full,
        outcome.diagnostics.len(),
        outcome.errors.len()
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
