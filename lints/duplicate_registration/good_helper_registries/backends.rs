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
