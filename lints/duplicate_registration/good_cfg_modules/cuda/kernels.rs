//! CUDA custom calls: under `cfg(feature = "cuda")` through `cuda.rs`.

pub fn init(targets: &mut CustomCallTargets) {
    targets.register_custom_call_target("cu_threefry2x32", cu_threefry2x32 as *const ());
}
