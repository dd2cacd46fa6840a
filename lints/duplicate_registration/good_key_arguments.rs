//! `duplicate_registration` must stay silent: registries keyed by more than
//! their first argument (built-in: `register_handler` and
//! `register_ffi_handler` by target and platform, `register_custom_call_target`
//! by name and platform), and a first argument that is not known.

const TARGET: &str = "my_custom_op";

// One FFI target, one handler per platform (pjrt-rs's `register_handler`).
pub unsafe fn register_my_op(ffi: &FfiExtension) -> Result<()> {
    ffi.register_handler(TARGET, "CUDA", cuda_handler, FfiHandlerTraits::empty())?;
    ffi.register_handler(TARGET, "Host", host_handler, FfiHandlerTraits::empty())?;
    Ok(())
}

// ryft's `register_ffi_handler(name, platform, handler, traits)`.
pub fn register_ryft_handlers(client: &Client) -> Result<()> {
    client.register_ffi_handler("ryft.matmul", "cuda", matmul_cuda, FfiHandlerTraits::NONE)?;
    client.register_ffi_handler("ryft.matmul", "cpu", matmul_cpu, FfiHandlerTraits::NONE)?;
    Ok(())
}

// XLA's `register_custom_call_target(name, fn, platform)`.
pub fn register_lapack_targets() {
    register_custom_call_target("lapack_sgetrf", lapack_sgetrf_host as *const (), "Host");
    register_custom_call_target("lapack_sgetrf", lapack_sgetrf_cuda as *const (), "CUDA");
}

// A registry keyed by runtime and name (burn-cubecl's fusion registry): the
// runtimes are parameters or locals, unknown, so the same name twice is not
// a duplicate.
pub fn register_fusions(entry: &mut Entry, runtime: &str, fallback: &str) {
    entry.register(runtime, "fuse_matmul", matmul_slot());
    entry.register(fallback, "fuse_matmul", matmul_slot());
    let wgpu = runtime_name::<WgpuRuntime>();
    let cuda = runtime_name::<CudaRuntime>();
    entry.register(wgpu, "fuse_reduce", reduce_slot());
    entry.register(cuda, "fuse_reduce", reduce_slot());
}
