//! Backends registered by name with a [`Registry`]; each name once.

pub mod registry;

pub use registry::{Backend, BackendFactory, Registry, RegistryError};
