//! The ROCm backend: compiled with `feature = "rocm"` only (see `lib.rs`).

pub fn init() {
    xla_bridge::register_plugin("rocm", load_pjrt_plugin("libpjrt_rocm.so"));
}

// The CUDA placeholder in `cuda_stub.rs` registers `cuda` under
// `not(feature = "cuda")`; this one is exclusive with it.
#[cfg(feature = "cuda")]
pub fn init_cuda_interop(plugins: &mut PluginRegistry) {
    plugins.register_plugin("cuda", CudaInteropPlugin::new());
}
