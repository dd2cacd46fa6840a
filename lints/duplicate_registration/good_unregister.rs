//! `duplicate_registration` must stay silent: the key is unregistered from
//! the same registry, in the same function, between the two registrations
//! (`unregister`, `remove` or `deregister`).
//!
//! Production code is one scope for the whole crate: every case uses its own
//! (callee, receiver, key) group.

pub const TPU: &str = "tpu";

// `unregister(key)` between the two registrations.
pub fn reload_cuda(registry: &mut Registry) {
    registry.register_backend("cuda", make_cuda_client);
    registry.unregister("cuda");
    registry.register_backend("cuda", make_cuda_client_async);
}

// `remove(key)`, on a receiver reached through `self`.
impl Runtime {
    pub fn replace_rocm_plugin(&mut self) {
        self.plugins.register_plugin("rocm", load_pjrt_plugin("libpjrt_rocm.so"));
        self.plugins.remove("rocm");
        self.plugins.register_plugin("rocm", load_pjrt_plugin("libpjrt_rocm6.so"));
    }
}

// `deregister(key)`, with the key as a `const` on one side.
pub fn restart_tpu(platforms: &mut PlatformTable) {
    platforms.register_platform(TPU, TpuPlatform::default());
    platforms.deregister(TPU);
    platforms.register_platform("tpu", TpuPlatform::with_megacore());
}

// Every registration after the first follows its own unregistration.
pub fn cycle_metal_backend(registry: &mut DeviceRegistry) {
    registry.register_device("metal", metal_device(0));
    registry.unregister("metal");
    registry.register_device("metal", metal_device(1));
    registry.unregister("metal");
    registry.register_device("metal", metal_device(2));
}

// Other statements between the unregistration and the registration do not
// matter.
pub fn swap_custom_call(targets: &mut CustomCallTargets) {
    targets.register_custom_call_target("lapack_sgetrf", lapack_sgetrf as *const ());
    let previous = targets.remove("lapack_sgetrf");
    log::debug!("replacing {:?}", previous);
    targets.register_custom_call_target("lapack_sgetrf", lapack_sgetrf_v2 as *const ());
}
