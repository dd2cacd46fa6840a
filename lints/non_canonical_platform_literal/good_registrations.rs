//! `non_canonical_platform_literal` must stay silent: backends registered under
//! canonical or plugin names, `"gpu"` where it is a valid name (lowering
//! rules, alias tables), and registries that are not about backends.
//!
//! Each registration uses its own (callee, receiver, key), so that none is a
//! duplicate of another.

use xla::mlir::register_lowering;
use xla_bridge::{register_backend_factory, register_plugin};

// Canonical backend names.
pub fn init_backends(registry: &mut Registry) {
    register_backend_factory("cuda", make_cuda_client, 200);
    registry.register_backend("rocm", make_rocm_client);
    Registry::global().register_platform("oneapi", OneApiPlatform::discover());
}

// Plugins bring their own names: a name that is not a platform we know is
// not checked.
pub fn init_plugins(plugins: &mut PluginRegistry) {
    register_plugin("xla_cuda_plugin", load_pjrt_plugin("libpjrt_cuda.so"));
    plugins.register_plugin("vulkan", load_pjrt_plugin("libpjrt_vulkan.so"));
    plugins.register_backend_factory("interpreter", make_interpreter_client, 0);
}

// Backend names are lowercased before lookup, so a mis-cased canonical name
// still finds its backend; only the alias is never looked up.
pub fn init_rocm_plugin(loader: &mut PluginLoader) {
    loader.register_plugin("ROCm", load_pjrt_plugin("libpjrt_rocm.so"));
}

// A lowering rule for `"gpu"` applies to cuda, rocm and oneapi alike.
pub fn register_gpu_lowerings(mlir: &mut LoweringTable) {
    register_lowering(&SORT_P, lower_sort_gpu, "gpu");
    mlir.register_lowering(&FFT_P, lower_fft_cufft, "cuda");
}

// An alias table is keyed by the alias: that is where `"gpu"` belongs.
pub fn register_aliases(aliases: &mut AliasTable) {
    aliases.register_alias("gpu", &["cuda", "rocm", "oneapi"]);
}

// Registries that are not about backends: primitives, kernels and custom
// call targets have names of their own, even when they mention a platform.
pub fn register_gpu_kernels(registry: &mut RuleRegistry, kernels: &mut KernelTable) {
    registry.register_unit_element_wise("gpu_neg", neg_rule);
    kernels.register_kernel("gpu", gpu_gemm_kernel);
    kernels.register_kernel_for("matmul", "GPU", gpu_gemm_kernel);
}

// XLA's custom call registry names platforms its own way (`"CUDA"`, `"Host"`):
// not a lowering platform.
pub fn register_custom_calls(targets: &mut CustomCallTargets) {
    targets.register_custom_call_target("cu_threefry2x32", cu_threefry2x32 as *const (), "CUDA");
    targets.register_custom_call_target("lapack_sgetrf", lapack_sgetrf as *const (), "Host");
}
