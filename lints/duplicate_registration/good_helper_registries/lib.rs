//! Helpers given registries of their own: the parameters share a name,
//! the registries do not.

pub mod backends;
pub mod registry;

use crate::backends::{
    add_cpu, add_cpu_to_both, add_cpu_to_each, cpu_only, add_cuda_if, add_fallback, add_gpu, add_metal, add_metal_stub,
    Registries,
};
use crate::registry::BackendRegistry;

pub fn init() -> (BackendRegistry, BackendRegistry) {
    let mut primary = BackendRegistry::new();
    let mut fallback = BackendRegistry::new();
    add_cpu(&mut primary);
    add_fallback(&mut fallback);
    (primary, fallback)
}

/// A helper called once, beside registrations of other names.
pub fn init_gpu() -> BackendRegistry {
    let mut registry = BackendRegistry::new();
    registry.register_backend("cpu", 0).unwrap();
    add_gpu(&mut registry);
    registry
}

pub fn init_cuda(first: bool) -> BackendRegistry {
    let mut registry = BackendRegistry::new();
    add_cuda_if(&mut registry, first);
    add_cuda_if(&mut registry, !first);
    registry
}

pub fn init_both() -> Registries {
    let mut regs = Registries {
        training: BackendRegistry::new(),
        inference: BackendRegistry::new(),
    };
    add_cpu_to_both(&mut regs);
    regs
}

pub fn init_metal() -> BackendRegistry {
    let mut registry = BackendRegistry::new();
    add_metal(&mut registry);
    add_metal_stub(&mut registry);
    registry
}

pub fn init_pair() -> (BackendRegistry, BackendRegistry) {
    let (mut a, mut b) = (BackendRegistry::new(), BackendRegistry::new());
    add_cpu_to_each(&mut a, &mut b);
    (a, b)
}

pub fn two_from_one() -> (BackendRegistry, BackendRegistry) {
    let template = BackendRegistry::new();
    (cpu_only(&template), cpu_only(&template))
}
