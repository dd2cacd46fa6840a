//! Fallbacks for builds without feature `b` (see `lib.rs`).

mod kernels;
