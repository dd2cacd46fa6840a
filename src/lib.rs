//! backend-lint: finds duplicate backend registrations and platform
//! comparisons that skip canonicalization, by parsing Rust source with `syn`.
//!
//! The library is what the binaries and tests call:
//! [`discover`] finds the files, [`engine::analyze`] runs the two passes,
//! [`report`] renders the result.

#![deny(unsafe_code)]

/// The allocator of every program linked with the library (feature
/// `mimalloc`, on by default): the binaries, and the bench for both the bare
/// parse and the linter, so its ratios compare like with like.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod analysis;
pub mod atomic;
pub mod baseline;
pub mod cli;
pub mod config;
pub mod diagnostic;
pub mod discover;
pub mod engine;
pub mod lex;
pub mod lint_id;
pub mod lints;
pub mod platform;
pub mod prefilter;
pub mod report;
pub mod simd;
pub mod source;
pub mod suppression;
pub mod typo;
