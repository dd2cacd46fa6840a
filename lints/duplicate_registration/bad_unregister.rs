//! `duplicate_registration`: an unregistration that does not separate the two
//! registrations: another key, another registry, before or after both, or in
//! another function.
//!
//! Production code is one scope for the whole crate: every case uses its own
//! (callee, receiver, key) group.

// Unregistering another key (a copy-paste slip) frees nothing for `cuda`.
pub fn reload_cuda(registry: &mut Registry) {
    registry.register_backend("cuda", make_cuda_client);
    registry.unregister("rocm");
    registry.register_backend("cuda", make_cuda_client_async); //~ duplicate_registration
}

// Unregistering from another registry: `plugins` still holds `rocm`.
pub fn replace_rocm_plugin(plugins: &mut PluginRegistry, legacy: &mut PluginRegistry) {
    plugins.register_plugin("rocm", load_pjrt_plugin("libpjrt_rocm.so"));
    legacy.remove("rocm");
    plugins.register_plugin("rocm", load_pjrt_plugin("libpjrt_rocm6.so")); //~ duplicate_registration
}

// Unregistering after both registrations is too late.
pub fn restart_tpu(platforms: &mut PlatformTable) {
    platforms.register_platform("tpu", TpuPlatform::default());
    platforms.register_platform("tpu", TpuPlatform::with_megacore()); //~ duplicate_registration
    platforms.deregister("tpu");
}

// Unregistering before both registrations is too early.
pub fn reset_metal(devices: &mut DeviceRegistry) {
    devices.unregister("metal");
    devices.register_device("metal", metal_device(0));
    devices.register_device("metal", metal_device(1)); //~ duplicate_registration
}

// Three registrations and one unregistration: the third registration is not
// separated from the second.
pub fn cycle_oneapi(registry: &mut KernelRegistry) {
    registry.register_kernel("oneapi_sort", sort_kernel_v1);
    registry.unregister("oneapi_sort");
    registry.register_kernel("oneapi_sort", sort_kernel_v2);
    registry.register_kernel("oneapi_sort", sort_kernel_v3); //~ duplicate_registration
}

// An unregistration in another function: nothing says it runs in between.
pub fn init_custom_calls() {
    crate::TARGETS.register_custom_call_target("lapack_sgetrf", lapack_sgetrf as *const ());
}

pub fn reset_custom_calls() {
    crate::TARGETS.remove("lapack_sgetrf");
}

pub fn init_custom_calls_v2() {
    crate::TARGETS.register_custom_call_target("lapack_sgetrf", lapack_sgetrf_v2 as *const ()); //~ duplicate_registration
}
