//! The twin of `good_block_groups`: one group, one case name twice.

pub mod harness;
pub mod suites;
