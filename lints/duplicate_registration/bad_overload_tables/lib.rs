//! The twin of `good_overload_tables`: the same engine, but its table holds
//! one function per name and refuses a second one, so registering `abs`
//! again for another argument type fails at start-up.

pub mod engine;
pub mod stdlib;
