//! `duplicate_registration`: `register_lowering(primitive, rule, platform)`
//! written in other ways: the platform as `platform = ".."`, calls inside
//! macro invocations, a primitive written with other whitespace. The finding
//! is on the platform argument of the later call.
//!
//! Every case lowers its own primitive, so cases never collide with each other.

use xla::mlir::register_lowering;

// `platform = "cuda"` as the last argument, inside a macro invocation, after a
// rule for `"gpu"`.
pub fn register_argsort_lowerings() {
    register_lowering(&ARGSORT_P, lower_argsort_gpu, platform = "gpu");
    with_logging!(register_lowering(&ARGSORT_P, lower_argsort_cuda, platform = "cuda")); //~ duplicate_registration
}

// Both calls inside macro invocations, on one lowering table.
pub fn register_cholesky_lowerings(mlir: &mut LoweringTable) {
    with_logging!(mlir.register_lowering(&CHOLESKY_P, lower_cholesky_rocm, platform = "rocm"));
    with_logging!(mlir.register_lowering(&CHOLESKY_P, lower_cholesky_gpu, platform = "gpu")); //~ duplicate_registration
}

// The primitive is compared as written, without whitespace: `& QR_P` is `&QR_P`.
pub fn register_qr_lowerings() {
    register_lowering(&QR_P, lower_qr_cuda, "cuda");
    register_lowering(& QR_P, lower_qr_cuda_v2, "cuda"); //~ duplicate_registration
}

// Inside a `lazy_static!` initializer, a `"gpu"` rule and an `oneapi` rule.
lazy_static::lazy_static! {
    static ref LOWERINGS: LoweringTable = {
        let mut table = LoweringTable::new();
        table.register_lowering(&TOPK_P, lower_topk_gpu, "gpu");
        table.register_lowering(&TOPK_P, lower_topk_sycl, "oneapi"); //~ duplicate_registration
        table
    };
}

// A multi-line macro invocation: the finding starts at the platform argument.
pub fn register_lu_lowerings() {
    register_lowering(&LU_P, lower_lu_gpu, "gpu");
    with_logging!(register_lowering(
        &LU_P,
        lower_lu_rocsolver,
        platform = "rocm", //~ duplicate_registration
    ));
}
