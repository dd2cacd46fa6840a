//! backend-lint: finds duplicate backend registrations and platform
//! comparisons that skip canonicalization, by parsing Rust source with `syn`.
//!
//! The library is what the binaries and tests call. Its layers, each
//! importing only itself and those listed before it (`tests/layers.rs`
//! holds the code to it; docs/architecture.md says why):
//!
//! - [`model`]: spans, source files, diagnostics, facts, lint ids;
//! - [`syntax`]: lexing, the depth guard, parsing, suppression comments;
//! - [`config`]: the configuration file, levels, the vocabulary;
//! - [`analysis`]: the per-file walk, the module tree, name resolution;
//! - [`lints`]: one file per lint, levels, suppression;
//! - [`prefilter`]: the fast path, which skips what cannot matter;
//! - [`run`]: discovery, file I/O, the two passes on threads;
//! - [`report`], [`baseline`], [`cli`]: what a run shows and writes.

#![deny(unsafe_code)]

/// The allocator of every program linked with the library (feature
/// `mimalloc`, on by default): the binaries, and the bench for both the bare
/// parse and the linter, so its ratios compare like with like.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod analysis;
pub mod baseline;
pub mod cli;
pub mod config;
pub mod lints;
pub mod model;
pub mod prefilter;
pub mod report;
pub mod run;
pub mod syntax;
