//! What is done to a crate's findings once the lints have run: levels, then
//! suppression comments. Not lints themselves, so not beside them (each file
//! of `src/lints/` is one lint).

pub mod add_suppressions;
pub mod levels;
pub mod suppression;
