//! Helpers whose parameters are named alike, each given its own registry,
//! and helpers whose calls cannot register a key twice.

use crate::registry::BackendRegistry;

pub fn add_cpu(reg: &mut BackendRegistry) {
    reg.register_backend("cpu", 0).unwrap();
}

pub fn add_fallback(reg: &mut BackendRegistry) {
    reg.register_backend("cpu", 1).unwrap();
}

pub fn add_gpu(reg: &mut BackendRegistry) {
    reg.register_backend("rocm", 5).unwrap();
}

/// Registers only when asked to: two calls asking once are no duplicate.
pub fn add_cuda_if(reg: &mut BackendRegistry, wanted: bool) {
    if wanted {
        reg.register_backend("cuda", 10).unwrap();
    }
}

/// Two registries reached through one parameter: not the same one.
pub struct Registries {
    pub training: BackendRegistry,
    pub inference: BackendRegistry,
}

pub fn add_cpu_to_both(regs: &mut Registries) {
    regs.training.register_backend("cpu", 0).unwrap();
    regs.inference.register_backend("cpu", 0).unwrap();
}

/// Each compiled in builds the other is not: one helper's key, whichever.
pub fn add_metal(reg: &mut BackendRegistry) {
    #[cfg(target_os = "macos")]
    reg.register_backend("metal", 3).unwrap();
}

pub fn add_metal_stub(reg: &mut BackendRegistry) {
    #[cfg(not(target_os = "macos"))]
    reg.register_backend("metal", 0).unwrap();
}

/// Two parameters, two registries: each gets `cpu` once.
pub fn add_cpu_to_each(a: &mut BackendRegistry, b: &mut BackendRegistry) {
    a.register_backend("cpu", 0).unwrap();
    b.register_backend("cpu", 0).unwrap();
}

/// A registry made from a parameter is the function's own, not the caller's
/// (wasmtime's `let mut linker = Linker::new(engine)`).
pub fn cpu_only(template: &BackendRegistry) -> BackendRegistry {
    let mut registry = BackendRegistry::like(template);
    registry.register_backend("cpu", 0).unwrap();
    registry
}
