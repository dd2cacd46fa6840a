//! Backends registered by name with a [`Registry`]; each name once.

pub mod pipeline;
pub mod registry;

pub use pipeline::{Pipeline, Stage};
pub use registry::{Backend, BackendFactory, Registry, RegistryError};
