//! The search index, rebuilt in parallel.

use rayon::prelude::*;

use crate::pool;

pub fn rebuild(docs: &[&str]) -> usize {
    // "Make sure the pool is sized for indexing."
    pool::configure_pool(2); // BUG rayon-1: main configured the global pool: `build_global` returns Err(GlobalPoolAlreadyInitialized) and `expect` panics (rayon-core-1.13.0/src/registry.rs:191, the preset Err only the first `call_once` replaces)
    docs.par_iter().map(|d| d.len()).sum()
}
