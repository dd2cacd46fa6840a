//! `duplicate_registration` must stay silent: a `cfg` on a `mod` declaration
//! covers the whole file of that module (and the modules it declares), and a
//! `#[cfg(test)] mod tests;` file is test code.
//!
//! Production code is one scope for the whole crate: each case uses its own
//! (callee, receiver, key) group.

#[cfg(feature = "cuda")]
mod cuda;
#[cfg(not(feature = "cuda"))]
mod cuda_stub;
#[cfg(feature = "rocm")]
mod rocm;
#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "windows")]
mod windows;
#[cfg(test)]
mod tests;

use xla_bridge::{register_backend_factory, register_plugin};

// `cuda.rs` registers the `cuda` factory under `cfg(feature = "cuda")`; this
// function only exists without that feature.
#[cfg(not(feature = "cuda"))]
pub fn init_cuda() {
    register_backend_factory("cuda", make_unavailable_client);
}

// `cuda/kernels.rs` is declared by `cuda.rs`, so it inherits
// `cfg(feature = "cuda")`: this statement is never compiled with it.
pub fn init_custom_calls(targets: &mut CustomCallTargets) {
    #[cfg(not(feature = "cuda"))]
    targets.register_custom_call_target("cu_threefry2x32", threefry2x32_fallback as *const ());
}

// `rocm/mod.rs` registers the `rocm` plugin under `cfg(feature = "rocm")`.
pub fn init_rocm() {
    #[cfg(not(feature = "rocm"))]
    register_plugin("rocm", NoopPlugin::named("rocm"));
}

// The production registration of a backend that tests (in `tests/`) fake.
pub fn init_tpu(registry: &mut Registry) {
    registry.register_backend("tpu", make_tpu_client);
}
