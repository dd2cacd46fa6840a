//! `duplicate_registration`: registrations that look separated (by `cfg`,
//! guards, functions, modules, macros) but can both run.
//!
//! Every case uses its own (callee, receiver, key) group, so a finding here
//! comes from its own case only.

use xla_bridge::{register_backend_factory, register_platform};

// Two different features are not exclusive: `--all-features` (or a user
// enabling both) compiles both functions, and both run at start-up.
#[cfg(feature = "cuda")]
fn register_gpu_cuda() {
    register_backend_factory("accelerator", make_cuda_client);
}

#[cfg(feature = "rocm")]
fn register_gpu_rocm() {
    register_backend_factory("accelerator", make_rocm_client); //~ duplicate_registration
}

// `target_os = "linux"` implies `unix`: on Linux both statements are compiled.
pub fn init_host_plugins(plugins: &mut PluginRegistry) {
    #[cfg(unix)]
    plugins.register_plugin("host_callback", unix_host_callback());
    #[cfg(target_os = "linux")]
    plugins.register_plugin("host_callback", linux_host_callback()); //~ duplicate_registration
}

// `all(feature = "cuda", unix)` and `feature = "cuda"` hold together on Linux.
#[cfg(all(feature = "cuda", unix))]
pub fn init_cuda_unix() {
    crate::REGISTRY.register_platform("cuda", CudaPlatform::with_ipc());
}

#[cfg(feature = "cuda")]
pub fn init_cuda_any_os() {
    crate::REGISTRY.register_platform("cuda", CudaPlatform::default()); //~ duplicate_registration
}

// `if cfg!(..)` without `else`: the unconditional call after it runs too.
pub fn init_tpu_backends() {
    if cfg!(feature = "tpu") {
        register_backend_factory("tpu", make_tpu_client);
    }
    register_backend_factory("tpu", make_tpu_client_stub); //~ duplicate_registration
}

// The guarded registration is fine, but the unguarded one after it fails
// whenever the guarded one ran.
pub fn init_cpu(registry: &mut Registry) {
    if !registry.contains_key("cpu") {
        registry.register_backend("cpu", make_cpu_client);
    }
    registry.register_backend("cpu", make_cpu_client_with_threads(8)); //~ duplicate_registration
}

// A guard on another key protects nothing (a copy-paste slip).
pub fn init_rocm(registry: &mut Registry) {
    registry.register_backend("rocm", make_rocm_client);
    if !registry.contains("cuda") {
        registry.register_backend("rocm", make_rocm_client); //~ duplicate_registration
    }
}

// A registration in one `match` arm and another after the `match`: the arm
// and the later statement both run.
pub fn init_gpu_platform(registry: &mut Registry, vendor: GpuVendor) {
    match vendor {
        GpuVendor::Nvidia => registry.register_platform("accelerator", CudaPlatform::default()),
        GpuVendor::Amd | GpuVendor::Intel => {}
    }
    registry.register_platform("accelerator", HostFallbackPlatform::new()); //~ duplicate_registration
}

// Functions in different modules of production code share one registry.
mod plugin_loader {
    pub fn init() {
        xla_bridge::register_platform("oneapi", OneApiPlatform::discover());
    }
}

mod legacy_init {
    pub fn init() {
        xla_bridge::register_platform("oneapi", OneApiPlatform::discover()); //~ duplicate_registration
    }
}

// Statements in a macro invocation with a block body are analysed.
pub fn init_lazily(registry: &mut Registry) {
    registry.register_backend("metal", make_metal_client);
    run_once! {
        registry.register_backend("metal", make_metal_client); //~ duplicate_registration
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Each test function is its own scope. Two registrations inside the same
    // test function are not reported by default (a test exercising the
    // registry); `bad_check_tests/` turns test code on.
    #[test]
    fn fake_cuda_client_is_used() {
        let mut registry = Registry::default();
        registry.register_backend("cuda", make_cuda_client);
        registry.register_backend("cuda", make_fake_cuda_client);
    }
}

// An unguarded registration, and a guarded one in another function that may run
// first: then the unguarded call fails. Reported whatever the order in the source.
pub fn init_metal_eagerly() {
    register_plugin("metal_eager", make_metal_client); //~ duplicate_registration
}

pub fn init_metal_lazily() {
    if !is_registered("metal_eager") {
        register_plugin("metal_eager", make_metal_client);
    }
}

// A `return` inside a closure leaves the closure, not the function: the
// registration after the closure still runs after the one inside it.
pub fn init_with_closure(registry: &mut Registry) {
    let mut setup = || {
        registry.register_backend("closure_key", make_a);
        return;
    };
    setup();
    registry.register_backend("closure_key", make_b); //~ duplicate_registration
}

// A `return` after both registrations does not separate them.
pub fn init_then_return(registry: &mut Registry) {
    registry.register_backend("late_return", make_a);
    registry.register_backend("late_return", make_b); //~ duplicate_registration
    return;
}
