//! Portable custom calls: under `cfg(not(feature = "b"))` through
//! `fallback.rs`.

// `a_backend/kernels.rs` registers this target under `cfg(feature = "a")`,
// inherited from `a_backend.rs`; `not(feature = "b")` does not exclude it.
pub fn init() {
    crate::TARGETS.register_custom_call_target("cu_threefry2x32", threefry2x32_fallback as *const ()); //~ duplicate_registration
}
