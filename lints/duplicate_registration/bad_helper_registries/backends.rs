//! Helpers that each add some backends to the registry they are given,
//! their parameters named as each author liked.

use crate::registry::BackendRegistry;

pub fn add_cpu(reg: &mut BackendRegistry) {
    reg.register_backend("cpu", 0).unwrap();
}

pub fn add_accelerators(r: &mut BackendRegistry) {
    r.register_backend("cuda", 10).unwrap();
    // A fallback added again: `add_cpu` has it already.
    r.register_backend("cpu", 1).unwrap();
}

/// One helper calling the others on its own parameter.
pub fn add_defaults(registry: &mut BackendRegistry) {
    add_cpu(registry);
    add_accelerators(registry); //~ duplicate_registration
}

pub fn add_gpus(gpus: &mut BackendRegistry) {
    gpus.register_backend("rocm", 20).unwrap();
    gpus.register_backend("metal", 21).unwrap();
}

/// A backend, and a device through the registry's own wrapper, which is
/// learned a round after this helper is.
pub fn add_npus(npus: &mut BackendRegistry) {
    npus.register_backend("npu", 30).unwrap();
    npus.add_device("tpu").unwrap();
}
