//! Backend B: compiled with `feature = "b"` (see `lib.rs`), which does not
//! exclude `feature = "a"`.

// `a_backend.rs` registers the same factory under `cfg(feature = "a")`.
pub fn init() {
    xla_bridge::register_backend_factory("cuda", make_cuda_client_async); //~ duplicate_registration
}
