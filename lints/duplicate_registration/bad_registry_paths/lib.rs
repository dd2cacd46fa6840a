//! A plugin registry kept in one global table and reached through a
//! function, `crate::plugins::registry()`, as runtimes load device plugins:
//! each backend module registers its plugin at start-up, one spelling the
//! path in full, another importing the function.

pub mod plugins;
pub mod cuda;
pub mod hip;
pub mod ops;
