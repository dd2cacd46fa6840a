//! `duplicate_registration`: `const`/`static` keys resolved by module path
//! across the files of one crate: `use` (also grouped, renamed, glob and
//! re-exported), `self::`, `crate::` and `super::` paths, `pub(crate)`,
//! `static` and `concat!`.
//!
//! Production code is one scope for the whole crate, so every case uses its
//! own (callee, receiver, key) group: a finding must come from its own case.
//! The two registrations of a case sit in one file, except where a comment
//! says otherwise.

mod backends;
mod names;

use crate::names::ONEAPI as INTEL_GPU;
use xla::mlir::register_lowering;
use xla_bridge::{register_backend, register_platform, register_plugin};

// Two modules define a `NAME` each, with different values: the module path
// says which one is meant.
mod cuda {
    pub const NAME: &str = "cuda";
}

mod rocm {
    pub const NAME: &str = "rocm";
}

// `cuda::NAME` twice is the same key, although `NAME` alone is ambiguous.
pub fn init_vendor_backends() {
    register_backend(cuda::NAME, make_cuda_client);
    register_backend(cuda::NAME, make_cuda_client_async); //~ duplicate_registration
}

// `rocm::NAME` resolves to `"rocm"`, the same key as the literal.
pub fn init_rocm_plugin() {
    register_plugin(rocm::NAME, load_pjrt_plugin("libpjrt_rocm.so"));
    register_plugin("rocm", load_pjrt_plugin("libpjrt_rocm6.so")); //~ duplicate_registration
}

// A `pub static` reached through a `crate::` path.
pub fn init_metal_platform() {
    register_platform(crate::names::METAL, MetalPlatform::default());
    register_platform("metal", MetalPlatform::with_shared_events()); //~ duplicate_registration
}

// A `self::` path to a `const` built with `concat!("ro", "cm")`.
pub fn init_rocm_plugins(plugins: &mut PluginRegistry) {
    plugins.register_plugin("rocm", RocmPlugin::new());
    plugins.register_plugin(self::names::ROCM, RocmPlugin::with_defaults()); //~ duplicate_registration
}

// A `const` imported under another name (`use crate::names::ONEAPI as INTEL_GPU;`).
pub fn init_oneapi_platform(platforms: &mut PlatformTable) {
    platforms.register_platform(INTEL_GPU, OneApiPlatform::discover());
    platforms.register_platform("oneapi", OneApiPlatform::discover()); //~ duplicate_registration
}

// A `const` re-exported by another module under another name
// (`pub(crate) use crate::names::TPU as DEFAULT_BACKEND;` in `backends/mod.rs`).
pub fn init_default_backend(registry: &mut Registry) {
    registry.register_default(backends::DEFAULT_BACKEND, make_tpu_client);
    registry.register_default("tpu", make_tpu_client_v2); //~ duplicate_registration
}

// A `const` of a nested module, reached through its full path; the lowering
// finding is on the platform argument.
pub fn register_sort_lowerings() {
    register_lowering(&SORT_P, lower_sort_tpu, "tpu");
    register_lowering(&SORT_P, lower_sort_tpu_v5, crate::names::lowering::TPU_PLATFORM); //~ duplicate_registration
}

// A `const` inside a function is that function's: the module's `LOCAL_KEY` is
// still "cuda_local" in `init_local_a`, so its two registrations collide.
const LOCAL_KEY: &str = "cuda_local";
pub fn init_local_a() {
    register_backend_factory(LOCAL_KEY, make_a);
    register_backend_factory("cuda_local", make_b); //~ duplicate_registration
}
pub fn init_local_b() {
    const LOCAL_KEY: &str = "rocm_local";
    register_backend_factory(LOCAL_KEY, make_c);
}
