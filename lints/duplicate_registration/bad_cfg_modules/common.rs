//! Declared without a `cfg`: always compiled, whatever the `cfg`s of the
//! `mod` declarations before and after it in `lib.rs`.

pub fn init() {
    crate::REGISTRY.register_backend("tpu", make_tpu_client);
}

// A statement under `cfg(feature = "b")`, and the file `a_backend.rs` under
// `cfg(feature = "a")`: both compile with `--all-features`.
pub fn init_rocm() {
    #[cfg(feature = "b")]
    xla_bridge::register_plugin("rocm", load_pjrt_plugin("libpjrt_rocm6.so")); //~ duplicate_registration
}
