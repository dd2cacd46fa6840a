//! `duplicate_registration`: `register_lowering(primitive, rule, platform)`
//! is keyed by (primitive, platform), and `"gpu"` stands for `cuda`, `rocm`
//! and `oneapi`. The finding is on the platform argument of the later call.
//!
//! Every case lowers its own primitive, so cases never collide with each other.

use xla::mlir::register_lowering;

pub const CUDA: &str = "cuda";

// A rule for all GPUs, then one for CUDA: the CUDA rule replaces the GPU rule
// on CUDA devices, which is rarely what the author of the first one expects.
pub fn register_sharding_lowerings() {
    register_lowering(&SHARDING_CONSTRAINT_P, lower_sharding_constraint, "gpu");
    register_lowering(&SHARDING_CONSTRAINT_P, lower_sharding_constraint_cuda, "cuda"); //~ duplicate_registration
}

// The other order overlaps just as much.
pub fn register_sort_lowerings() {
    register_lowering(&SORT_P, lower_sort_rocm, "rocm");
    register_lowering(&SORT_P, lower_sort_gpu, "gpu"); //~ duplicate_registration
}

// The same platform twice, once through a `const`.
pub fn register_cumsum_lowerings() {
    register_lowering(&CUMSUM_P, lower_cumsum_cuda, CUDA);
    register_lowering(&CUMSUM_P, lower_cumsum_cuda_v2, "cuda"); //~ duplicate_registration
}

// Platform names compare ignoring ASCII case.
pub fn register_fft_lowerings() {
    register_lowering(&FFT_P, lower_fft_ducc, "cpu");
    register_lowering(&FFT_P, lower_fft_pocketfft, "CPU"); //~ duplicate_registration //~ non_canonical_platform_literal
}

// `"gpu"` twice.
pub fn register_threefry_lowerings() {
    register_lowering(&THREEFRY2X32_P, lower_threefry_gpu, "gpu");
    register_lowering(&THREEFRY2X32_P, lower_threefry_gpu_v2, "gpu"); //~ duplicate_registration
}

// Each vendor rule after the `"gpu"` rule overlaps with it: one finding each.
pub fn register_eigh_lowerings() {
    register_lowering(&EIGH_P, lower_eigh_gpu, "gpu");
    register_lowering(&EIGH_P, lower_eigh_rocsolver, "rocm"); //~ duplicate_registration
    register_lowering(&EIGH_P, lower_eigh_onemkl, "oneapi"); //~ duplicate_registration
}

// The finding starts at the platform argument, on its own line here.
pub fn register_custom_call_lowerings() {
    register_lowering(&CUSTOM_CALL_P, lower_custom_call, "gpu");
    register_lowering(
        &CUSTOM_CALL_P,
        lower_custom_call_oneapi,
        "oneapi", //~ duplicate_registration
    );
}

// The method form on one lowering table.
pub fn register_tpu_lowerings(mlir: &mut LoweringTable) {
    mlir.register_lowering(&ALL_GATHER_P, lower_all_gather_tpu, "tpu");
    mlir.register_lowering(&ALL_GATHER_P, lower_all_gather_tpu_v5, "tpu"); //~ duplicate_registration
}
