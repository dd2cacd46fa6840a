//! A benchmark harness: each block makes its own group from the runner and
//! registers its cases on it. The groups share a variable name, not a
//! registry: `parse` in the first group and `parse` in the second are cases
//! of two groups.

pub mod harness;
pub mod suites;
