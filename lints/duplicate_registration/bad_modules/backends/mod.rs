//! Backends, one file each.

mod cuda;
mod rocm;

use super::names as n;
use crate::names::{CUDA, ONEAPI};

// A re-export: `crate::backends::DEFAULT_BACKEND` is `crate::names::TPU`
// (used in `lib.rs`).
pub(crate) use crate::names::TPU as DEFAULT_BACKEND;

// A module imported under another name: `n::TPU` is `crate::names::TPU`, a
// `pub(crate) const`.
pub fn init_tpu(registry: &mut Registry) {
    registry.register_backend(n::TPU, make_tpu_client);
    registry.register_backend("tpu", make_tpu_client_v2); //~ duplicate_registration
}

// A `pub(crate) static` through the alias, twice.
pub fn init_host_callbacks(callbacks: &mut CallbackRegistry) {
    callbacks.register_callback(n::HOST_CALLBACK, host_callback);
    callbacks.register_callback(n::HOST_CALLBACK, host_callback_v2); //~ duplicate_registration
}

// Names from a grouped import (`use crate::names::{CUDA, ONEAPI};`).
pub fn init_kernels(kernels: &mut KernelRegistry) {
    kernels.register_kernel(CUDA, cuda_kernels());
    kernels.register_kernel(ONEAPI, oneapi_kernels());
    kernels.register_kernel("cuda", cuda_kernels_v2()); //~ duplicate_registration
}
