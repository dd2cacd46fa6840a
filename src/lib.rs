//! backend-lint: finds duplicate backend registrations and platform
//! comparisons that skip canonicalization, by parsing Rust source with `syn`.
//!
//! The library is what the binaries and tests call. Its layers, each
//! importing only itself and those listed before it (`tests/layers.rs`
//! holds the code to it; docs/architecture.md says why), named without
//! links since only `cli` is public in a normal build:
//!
//! - `model`: spans, source files, diagnostics, facts, lint ids;
//! - `syntax`: lexing, the depth guard, parsing, suppression comments;
//! - `config`: the configuration file, levels, the vocabulary;
//! - `semantic`: items and name resolution per crate (item trees, def
//!   maps, bodies resolved on demand);
//! - `analysis`: the per-file walk, the module tree, name resolution;
//! - `lints`: one file per lint, levels, suppression;
//! - `prefilter`: the fast path, which skips what cannot matter;
//! - `run`: discovery, file I/O, the two passes on threads;
//! - `report`, `baseline`, [`cli`]: what a run shows and writes;
//! - `server`: the language server (`backend-lint server`), beside `baseline`.
//!
//! Only [`cli`] is public in a normal build: the binaries call nothing else,
//! and no one else links the library, so an item that only tests used shows
//! up as dead code instead of hiding behind `pub`. With the `testing` feature
//! (the tests and benches get it through a dev-dependency on this package,
//! the fuzz target by name) every floor is public, with what only they call.

#![deny(unsafe_code)]

/// The allocator of every program linked with the library (feature
/// `mimalloc`, on by default): the binaries, and the bench for both the bare
/// parse and the linter, so its ratios compare like with like.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

// Written out, not made by a macro: rustfmt skips modules declared by one.
#[cfg(feature = "testing")]
pub mod analysis;
#[cfg(not(feature = "testing"))]
mod analysis;
#[cfg(feature = "testing")]
pub mod baseline;
#[cfg(not(feature = "testing"))]
mod baseline;
#[cfg(feature = "testing")]
pub mod config;
#[cfg(not(feature = "testing"))]
mod config;
#[cfg(feature = "testing")]
pub mod lints;
#[cfg(not(feature = "testing"))]
mod lints;
#[cfg(feature = "testing")]
pub mod model;
#[cfg(not(feature = "testing"))]
mod model;
#[cfg(feature = "testing")]
pub mod prefilter;
#[cfg(not(feature = "testing"))]
mod prefilter;
#[cfg(feature = "testing")]
pub mod report;
#[cfg(not(feature = "testing"))]
mod report;
#[cfg(feature = "testing")]
pub mod run;
#[cfg(not(feature = "testing"))]
mod run;
// The semantic floor: until the lints query it, only tests and benches do.
#[cfg(feature = "testing")]
pub mod semantic;
#[cfg(not(feature = "testing"))]
#[allow(dead_code)]
mod semantic;
#[cfg(feature = "testing")]
pub mod server;
#[cfg(not(feature = "testing"))]
mod server;
#[cfg(feature = "testing")]
pub mod syntax;
#[cfg(not(feature = "testing"))]
mod syntax;

pub mod cli;
