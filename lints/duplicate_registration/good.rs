//! `duplicate_registration` must stay silent: the same key registered in
//! places that never both run (`if`/`else`, `match` arms, exclusive `cfg`s).

use xla_bridge::{register_backend_factory, register_plugin};

// `if`/`else`: exactly one arm runs.
pub fn init_gpu(registry: &mut Registry, prefer_rocm: bool) {
    if prefer_rocm {
        registry.register_backend("accelerator", make_rocm_client);
    } else {
        registry.register_backend("accelerator", make_cuda_client);
    }
}

// An `else if` chain: every pair of arms diverges at some `if`.
pub fn init_tpu(registry: &mut Registry, generation: u32) {
    if generation >= 5 {
        registry.register_backend("tpu", make_tpu_v5_client);
    } else if generation == 4 {
        registry.register_backend("tpu", make_tpu_v4_client);
    } else {
        registry.register_backend("tpu", make_tpu_legacy_client);
    }
}

// `match` arms are mutually exclusive.
pub fn init_gpu_platform(registry: &mut Registry, vendor: GpuVendor) {
    match vendor {
        GpuVendor::Nvidia => registry.register_platform("accelerator", CudaPlatform::default()),
        GpuVendor::Amd => registry.register_platform("accelerator", RocmPlatform::default()),
        GpuVendor::Intel => {
            registry.register_platform("accelerator", OneApiPlatform::discover());
        }
    }
}

// `cfg(X)` and `cfg(not(X))` on items: only one function is compiled.
#[cfg(feature = "cuda")]
fn register_gpu_factory() {
    register_backend_factory("accelerator", make_cuda_client);
}

#[cfg(not(feature = "cuda"))]
fn register_gpu_factory() {
    register_backend_factory("accelerator", make_unavailable_client);
}

// `all(feature = "cuda", unix)` never holds together with `not(feature = "cuda")`.
#[cfg(all(feature = "cuda", unix))]
pub fn init_cuda_ipc(plugins: &mut PluginRegistry) {
    plugins.register_plugin("cuda_ipc", CudaIpcPlugin::new());
}

#[cfg(not(feature = "cuda"))]
pub fn init_cuda_ipc(plugins: &mut PluginRegistry) {
    plugins.register_plugin("cuda_ipc", NoopPlugin::named("cuda_ipc"));
}

// `cfg` on statements in one function.
pub fn init_metal() {
    #[cfg(feature = "metal")]
    register_backend_factory("metal", make_metal_client);
    #[cfg(not(feature = "metal"))]
    register_backend_factory("metal", make_unavailable_client);
}

// `if cfg!(..) { .. } else { .. }`: both arms are compiled, one runs.
pub fn init_tpu_factory() {
    if cfg!(feature = "tpu") {
        register_backend_factory("tpu", make_tpu_client);
    } else {
        register_backend_factory("tpu", make_unavailable_client);
    }
}

// `target_os` has one value per build: Linux and Windows never both compile.
#[cfg(target_os = "linux")]
mod host_plugins {
    pub fn init() {
        xla_bridge::register_plugin("rocm", super::load_pjrt_plugin("libpjrt_rocm.so"));
    }
}

#[cfg(target_os = "windows")]
mod host_plugins {
    pub fn init() {
        xla_bridge::register_plugin("rocm", super::load_pjrt_plugin("pjrt_rocm.dll"));
    }
}

// A `cfg` on an item and a `cfg(not(..))` on a statement elsewhere exclude
// each other too.
#[cfg(feature = "oneapi")]
pub fn init_oneapi() {
    register_plugin("oneapi", load_pjrt_plugin("libpjrt_oneapi.so"));
}

pub fn init_oneapi_fallback() {
    #[cfg(not(feature = "oneapi"))]
    register_plugin("oneapi", NoopPlugin::named("oneapi"));
}

// Nested branches: every pair of registrations sits in different arms of the
// outer `if` or of the inner `match`.
pub fn init_default_device(devices: &mut DeviceRegistry, use_accelerator: bool, vendor: GpuVendor) {
    if use_accelerator {
        match vendor {
            GpuVendor::Nvidia => devices.register_default("default", cuda_device(0)),
            _ => devices.register_default("default", rocm_device(0)),
        }
    } else {
        devices.register_default("default", cpu_device(0));
    }
}
