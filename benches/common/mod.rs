//! What the benches share: the bare `syn` parse every run is compared with,
//! and the peak memory of the process.

use rayon::prelude::*;

/// A pool with the linter's big stacks: a bare parse of deep code needs
/// them as much as the linter does.
pub fn big_stack_pool() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .stack_size(256 << 20)
        .build()
        .unwrap()
}

/// `syn::parse_file` of every text, in parallel on `pool`: how many parsed.
pub fn bare_parse(pool: &rayon::ThreadPool, texts: &[String]) -> usize {
    pool.install(|| {
        texts
            .par_iter()
            .filter(|t| {
                let ok = syn::parse_file(t).is_ok();
                // As the linter does after each file (and as any
                // long-running parse must): else the span table grows.
                proc_macro2::extra::invalidate_current_thread_spans();
                ok
            })
            .count()
    })
}

/// VmHWM from /proc (Linux); `None` elsewhere.
#[allow(dead_code)] // Not every bench prints it.
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The crates cargo has unpacked in `~/.cargo/registry/src` (its first
/// index), i.e. real Rust code; that folder itself when there is none.
pub fn registry_corpus() -> std::path::PathBuf {
    use std::path::PathBuf;
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
