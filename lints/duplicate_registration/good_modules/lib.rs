//! `duplicate_registration` must stay silent: constants with one name in
//! several modules, resolved by module path to different values, and names
//! that resolve to nothing.
//!
//! Production code is one scope for the whole crate: each case uses its own
//! (callee, receiver) pair, so that only its own registrations could collide.

mod backends;
mod legacy_names;
mod names;

use xla_bridge::*;

// Two modules define a `NAME` each: `cuda::NAME` is `"cuda"` and
// `rocm::NAME` is `"rocm"`, two keys.
mod cuda {
    pub const NAME: &str = "cuda";
}

mod rocm {
    pub const NAME: &str = "rocm";
}

pub fn init_vendor_backends() {
    register_backend(cuda::NAME, make_cuda_client);
    register_backend(rocm::NAME, make_rocm_client);
}

// A bare `NAME` is not defined or imported by name here (it could come from
// the glob `use xla_bridge::*;`), and the crate has two `NAME`s with different
// values: it resolves to nothing, so it collides with neither literal.
pub fn init_vendor_plugins() {
    register_plugin(NAME, load_default_pjrt_plugin());
    register_plugin("cuda", load_pjrt_plugin("libpjrt_cuda.so"));
    register_plugin("rocm", load_pjrt_plugin("libpjrt_rocm.so"));
}

// `self::KEY` in a module means that module's `KEY`, not the crate root's.
const KEY: &str = "metal";

pub fn init_metal_platform() {
    register_platform(KEY, MetalPlatform::default());
}

mod host {
    const KEY: &str = "cpu";

    pub fn init_host_platform() {
        xla_bridge::register_platform(self::KEY, super::HostPlatform::default());
    }
}

// A `const` declared in a function shadows the one of the module, in that
// function only.
const FACTORY_KEY: &str = "cuda";

pub fn init_cuda_factory() {
    register_backend_factory(FACTORY_KEY, make_cuda_client);
}

pub fn init_rocm_factory() {
    const FACTORY_KEY: &str = "rocm";
    register_backend_factory(FACTORY_KEY, make_rocm_client);
}

// `crate::names::TPU` and `crate::legacy_names::TPU` are two constants with
// different values.
pub fn init_tpu_backends(registry: &mut Registry) {
    registry.register_backend(crate::names::TPU, make_tpu_client);
    registry.register_backend(crate::legacy_names::TPU, make_legacy_tpu_client);
}

// `concat!` builds the whole name: `"cuda_ipc"` is not `"cuda"`.
pub fn init_cuda_plugins(plugins: &mut PluginRegistry) {
    plugins.register_plugin(crate::names::CUDA, CudaPlugin::new());
    plugins.register_plugin(crate::names::CUDA_IPC, CudaIpcPlugin::new());
}

// Paths into other crates never fall back to a constant of ours with the same
// last name (`kernels::SOFTMAX_NAME` here).
pub mod kernels {
    pub const SOFTMAX_NAME: &str = "softmax";
}
pub fn init_external(registry: &mut Registry) {
    registry.register_backend(burn_cuda::Backend::SOFTMAX_NAME, burn_cuda::factory());
    registry.register_backend(burn_wgpu::Backend::SOFTMAX_NAME, burn_wgpu::factory());
}
