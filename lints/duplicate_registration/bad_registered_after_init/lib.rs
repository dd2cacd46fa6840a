//! The seed's shape in Rust: a registry of backend factories that refuses
//! new factories once its backends are initialized, the way JAX's
//! `register_backend_factory` raises "Backend {name} already initialized".
//! The refusal is learned from `register_factory`'s guard and the
//! initialization from the method that sets the state the guard tests.

pub mod bridge;
pub mod plugin;
