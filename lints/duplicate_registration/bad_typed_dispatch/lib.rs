//! The twin of `good_typed_dispatch`: the same pair twice is refused.

pub mod functions;
pub mod builtins;
