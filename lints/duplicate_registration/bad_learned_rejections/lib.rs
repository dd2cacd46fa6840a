//! Registries that reject a second key without `contains_key` or `Entry`:
//! an operator table holding a `HashSet` of names, a pass manager that
//! looks the name up first, a dialect table that inserts when the name is
//! absent and fails otherwise, a kernel table that checks what `insert`
//! handed back. Each is learned from what it does, with no configuration.

pub mod tables;
pub mod setup;
