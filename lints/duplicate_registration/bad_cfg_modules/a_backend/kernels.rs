//! Custom calls of backend A: under `cfg(feature = "a")` through `a_backend.rs`.

pub fn init() {
    crate::TARGETS.register_custom_call_target("cu_threefry2x32", cu_threefry2x32 as *const ());
}
