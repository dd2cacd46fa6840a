//! `duplicate_registration`: registries keyed by more than their first
//! argument collide when every key argument is the same (platforms ignoring
//! ASCII case).

const TARGET: &str = "my_custom_op";

pub unsafe fn register_my_op(ffi: &FfiExtension) -> Result<()> {
    ffi.register_handler(TARGET, "CUDA", cuda_handler, FfiHandlerTraits::empty())?;
    ffi.register_handler(TARGET, "Host", host_handler, FfiHandlerTraits::empty())?;
    ffi.register_handler(TARGET, "cuda", cuda_handler_v2, FfiHandlerTraits::empty())?; //~ duplicate_registration
    Ok(())
}

pub fn register_lapack_targets() {
    register_custom_call_target("lapack_sgetrf", lapack_sgetrf_cuda as *const (), "CUDA");
    register_custom_call_target("lapack_sgetrf", lapack_sgetrf_cuda_v2 as *const (), "CUDA"); //~ duplicate_registration
}
