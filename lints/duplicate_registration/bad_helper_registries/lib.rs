//! A runtime whose backends are added by helpers (issue 19): one local
//! registry handed as `&mut registry` to two helpers that both register
//! `cpu` is one registry, whatever the helpers call their parameters.

pub mod backends;
pub mod registry;

use crate::backends::{add_accelerators, add_cpu, add_defaults, add_gpus, add_npus};
use crate::registry::BackendRegistry;

pub fn init() -> BackendRegistry {
    let mut registry = BackendRegistry::new();
    add_cpu(&mut registry);
    add_accelerators(&mut registry); //~ duplicate_registration
    registry
}

pub fn init_with_defaults() -> BackendRegistry {
    let mut registry = BackendRegistry::new();
    registry.register_backend("cuda", 5).unwrap();
    add_defaults(&mut registry); //~ duplicate_registration
    registry
}

/// A helper run twice on one registry: one finding for the pair of calls,
/// naming the keys it registers twice.
pub fn init_twice() -> BackendRegistry {
    let mut registry = BackendRegistry::new();
    add_gpus(&mut registry);
    add_gpus(&mut registry); //~ duplicate_registration
    registry
}

/// The helper's keys grow as the learning goes on: its callers are read
/// again with them.
pub fn init_devices() -> BackendRegistry {
    let mut registry = BackendRegistry::new();
    add_npus(&mut registry);
    registry.add_device("tpu").unwrap(); //~ duplicate_registration
    registry
}
