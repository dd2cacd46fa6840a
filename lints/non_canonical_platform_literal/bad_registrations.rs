//! `non_canonical_platform_literal`: a backend, plugin or platform registered
//! under the alias `gpu`. Lowering platforms and `canonicalize_platform` name
//! `cuda`, `rocm` or `oneapi`, never `gpu`, so a backend registered as `gpu`
//! is never found. The marker sits on the line of the key literal.
//!
//! Each registration uses its own (callee, receiver) pair, so that none is a
//! duplicate of another.

use xla_bridge::{register_backend_factory, register_plugin};

// A backend factory under the alias.
pub fn init_gpu_factory() {
    register_backend_factory("gpu", make_cuda_client, 200); //~ non_canonical_platform_literal
}

// A backend on a registry.
pub fn init_gpu_backend(registry: &mut Registry) {
    registry.register_backend("gpu", make_rocm_client); //~ non_canonical_platform_literal
}

// A PJRT plugin: names are lowercased before lookup, so `"GPU"` is `"gpu"`.
pub fn init_gpu_plugin() {
    register_plugin("GPU", load_pjrt_plugin("libpjrt_gpu.so")); //~ non_canonical_platform_literal
}

// A platform on a registry reached through a call.
pub fn init_gpu_platform() {
    Registry::global().register_platform("gpu", CudaPlatform::default()); //~ non_canonical_platform_literal
}

// A key wrapped in a conversion is still the literal.
pub fn init_gpu_backend_owned(backends: &mut BackendTable) {
    backends.register_backend(String::from("Gpu"), make_cuda_client); //~ non_canonical_platform_literal
}

// A qualified path and a call over several lines: the finding starts at the
// key, on its own line.
pub fn init_gpu_factory_qualified(runtime: &mut Runtime) {
    runtime.bridge.register_backend_factory(
        "gpu", //~ non_canonical_platform_literal
        make_oneapi_client,
        100,
    );
}

// A registration in one branch is reported like any other.
pub fn init_gpu_plugin_if_present(plugins: &mut PluginRegistry, found: bool) {
    if found {
        plugins.register_plugin("gpu".to_string(), load_pjrt_plugin("libpjrt_cuda.so")); //~ non_canonical_platform_literal
    }
}
