//! Backend A: compiled with `feature = "a"` (see `lib.rs`).

mod kernels;

pub fn init() {
    xla_bridge::register_backend_factory("cuda", make_cuda_client);
}

pub fn init_plugins() {
    xla_bridge::register_plugin("rocm", load_pjrt_plugin("libpjrt_rocm.so"));
}
