//! `duplicate_registration` must stay silent: lowerings that do not overlap,
//! written as `platform = ".."` or inside macro invocations.

use xla::mlir::register_lowering;

// `platform = ".."` arguments for disjoint platforms.
pub fn register_argsort_lowerings() {
    register_lowering(&ARGSORT_P, lower_argsort_cpu, platform = "cpu");
    with_logging!(register_lowering(&ARGSORT_P, lower_argsort_gpu, platform = "gpu"));
    with_logging!(register_lowering(&ARGSORT_P, lower_argsort_tpu, platform = "tpu"));
    with_logging!(register_lowering(&ARGSORT_P, lower_argsort_metal, platform = "metal"));
}

// Different primitives for the same platform, inside a macro invocation.
pub fn register_qr_lowerings() {
    with_logging!(register_lowering(&QR_P, lower_qr_gpu, platform = "gpu"));
    with_logging!(register_lowering(&HOUSEHOLDER_PRODUCT_P, lower_householder_gpu, platform = "gpu"));
}

// A free function and a method on a lowering table are two registries.
pub fn register_cholesky_lowerings(mlir: &mut LoweringTable) {
    register_lowering(&CHOLESKY_P, lower_cholesky_gpu, "gpu");
    mlir.register_lowering(&CHOLESKY_P, lower_cholesky_cuda, "cuda");
}

// `cfg`-exclusive rules for the same platform.
pub fn register_lu_lowerings() {
    #[cfg(feature = "cusolver")]
    register_lowering(&LU_P, lower_lu_cusolver, "cuda");
    #[cfg(not(feature = "cusolver"))]
    register_lowering(&LU_P, lower_lu_generic, "gpu");
}

// Lowerings registered by a test build their own table.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpu_rule_is_found() {
        let mut table = LoweringTable::new();
        table.register_lowering(&TOPK_P, lower_topk_gpu, "gpu");
        assert!(table.contains(&TOPK_P, "cuda"));
    }

    #[test]
    fn cuda_rule_is_found() {
        let mut table = LoweringTable::new();
        table.register_lowering(&TOPK_P, lower_topk_cuda, "cuda");
        assert!(table.contains(&TOPK_P, "cuda"));
    }
}
