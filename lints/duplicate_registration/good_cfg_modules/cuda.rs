//! The CUDA backend: compiled with `feature = "cuda"` only (see `lib.rs`).

mod kernels;

pub fn init() {
    xla_bridge::register_backend_factory("cuda", make_cuda_client);
}
