//! `duplicate_registration` must stay silent: keys, registries and callees
//! that only look alike, and lowerings for disjoint platforms.

use xla::mlir::register_lowering;
use xla_bridge::{register_backend_factory, register_plugin};

pub const CUDA: &str = "cuda";
pub const CUDA_PLUGIN: &str = "cuda_plugin";

// Keys held in local variables are not resolved: plugins discovered at run
// time have names the analyzer cannot know.
pub fn init_discovered_plugins(plugins: &mut PluginRegistry) {
    for plugin in discover_pjrt_plugins() {
        plugins.register_plugin(plugin.name(), plugin);
    }
    for (name, path) in env_plugin_paths() {
        plugins.register_plugin(name, load_pjrt_plugin(path));
    }
}

// A key computed by a call is not resolved either.
pub fn init_from_config(registry: &mut Registry, config: &RuntimeConfig) {
    registry.register_backend(config.default_backend(), make_default_client);
    registry.register_backend(config.fallback_backend(), make_fallback_client);
}

// Two different registries: JVP rules and transpose rules are separate tables
// keyed by the same primitive names.
impl RuleTables {
    pub fn register_sin(&mut self) {
        self.jvp.register("sin", sin_jvp);
        self.transpose.register("sin", sin_transpose);
    }
}

// The same key with different callees: a backend factory and a plugin are
// different registries.
pub fn init_cuda() {
    register_backend_factory(CUDA, make_cuda_client);
    register_plugin(CUDA, load_pjrt_plugin("libpjrt_cuda.so"));
}

// A `const` whose value differs from the literal next to it.
pub fn init_cuda_plugin_registry(plugins: &mut PluginRegistry) {
    plugins.register_plugin("cuda", CudaPlugin::new());
    plugins.register_plugin(CUDA_PLUGIN, CudaPlugin::legacy());
}

// Keys that share a prefix are different keys.
pub fn init_custom_calls(targets: &mut CustomCallTargets) {
    targets.register_custom_call_target("cu_threefry2x32", cu_threefry2x32 as *const ());
    targets.register_custom_call_target("cu_threefry2x32_ffi", cu_threefry2x32_ffi as *const ());
    targets.register_custom_call_target("lapack_sgetrf", lapack_sgetrf as *const ());
    targets.register_custom_call_target("lapack_dgetrf", lapack_dgetrf as *const ());
}

// Calls whose name does not start with `register` are queries, not registrations.
pub fn report_backends(registry: &Registry) -> Vec<&'static str> {
    let mut available = Vec::new();
    if is_registered("cuda") {
        available.push("cuda");
    }
    if is_registered("cuda") && registry.is_initialized("cuda") {
        available.push("cuda (initialized)");
    }
    available
}

// One lowering per platform: `cpu` and `gpu` are disjoint.
pub fn register_sort_lowerings() {
    register_lowering(&SORT_P, lower_sort_cpu, "cpu");
    register_lowering(&SORT_P, lower_sort_gpu, "gpu");
    register_lowering(&SORT_P, lower_sort_tpu, "tpu");
}

// Vendor rules without a `"gpu"` rule: `cuda`, `rocm` and `oneapi` are disjoint.
pub fn register_eigh_lowerings() {
    register_lowering(&EIGH_P, lower_eigh_cusolver, "cuda");
    register_lowering(&EIGH_P, lower_eigh_rocsolver, "rocm");
    register_lowering(&EIGH_P, lower_eigh_onemkl, "oneapi");
}

// Different primitives never collide, even for the same platform.
pub fn register_fft_lowerings() {
    register_lowering(&FFT_P, lower_fft_cufft, "gpu");
    register_lowering(&IFFT_P, lower_ifft_cufft, "gpu");
    register_lowering(&RFFT_P, lower_rfft_cufft, "gpu");
}

// `metal` does not overlap with `gpu`: the alias covers cuda, rocm and oneapi only.
pub fn register_matmul_lowerings(mlir: &mut LoweringTable) {
    mlir.register_lowering(&DOT_GENERAL_P, lower_dot_general_gpu, "gpu");
    mlir.register_lowering(&DOT_GENERAL_P, lower_dot_general_metal, "metal");
}
