//! A runtime whose backends are added by helpers (issue 19): one local
//! registry handed as `&mut registry` to two helpers that both register
//! `cpu` is one registry, whatever the helpers call their parameters.

pub mod backends;
pub mod registry;

use crate::backends::{add_accelerators, add_cpu, add_defaults};
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
