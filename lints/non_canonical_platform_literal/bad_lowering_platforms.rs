//! `non_canonical_platform_literal`: lowering platforms that no lowering rule
//! or backend is registered for: a canonical name in another case (`"CUDA"`,
//! `"Tpu"`) or a name that is not a platform at all (`"vulkan"`,
//! `"nvidia"`). Lowering platforms are compared exactly, so the module is
//! lowered with no rule, or the rule is never used. `"gpu"` is a lowering
//! platform (it stands for `cuda`, `rocm` and `oneapi`): see
//! `good_lowering_platforms.rs`. The marker sits on the line of the literal.
//!
//! No context here is given a backend, so `lowering_backend_mismatch` has
//! nothing to compare.

use xla::mlir::register_lowering;

// A `platforms:` field with a mis-cased name.
pub fn struct_field() -> Result<Executable, Error> {
    let ctx = LoweringContext {
        backend: None,
        platforms: vec!["CUDA"], //~ non_canonical_platform_literal
    };
    compile(&ctx)
}

// Only the bad element of a list is reported.
pub fn one_bad_element() -> Result<Executable, Error> {
    compile(&ModuleContext {
        backend: None,
        platforms: &["cpu", "Tpu"], //~ non_canonical_platform_literal
    })
}

// A name that is no platform, in a `lower*` call.
pub fn unknown_in_lower(ctx: &LoweringContext) -> Result<Executable, Error> {
    lower(ctx, &["vulkan"]) //~ non_canonical_platform_literal
}

// A vendor name is not a platform name, in a `lower*` method call.
pub fn vendor_in_lower_for(ctx: &LoweringContext) -> Result<Executable, Error> {
    ctx.lower_for(&["nvidia"]) //~ non_canonical_platform_literal
}

// The platforms assigned to the field.
pub fn assigned() -> Result<Executable, Error> {
    let mut ctx = LoweringContext::new();
    ctx.platforms = vec!["ROCm"]; //~ non_canonical_platform_literal
    compile(&ctx)
}

// Two bad elements on one line: two findings.
pub fn two_on_one_line(ctx: &LoweringContext) -> Result<Executable, Error> {
    lower_jaxpr_to_module(ctx, &["CPU", "Rocm"]) //~ non_canonical_platform_literal //~ non_canonical_platform_literal
}

// Only `"gpu"` itself expands to the GPU platforms; `"GPU"` is a name no rule
// or backend is registered under, like `"CUDA"`.
pub fn mis_cased_alias(ctx: &LoweringContext) -> Result<Executable, Error> {
    ctx.lower_for(&["GPU"]) //~ non_canonical_platform_literal
}

// A list over several lines: each bad element is reported where it is.
pub fn multi_line_list(ctx: &LoweringContext) -> Result<Executable, Error> {
    lower(
        ctx,
        &[
            "cuda",
            "Metal", //~ non_canonical_platform_literal
            "rocm",
            "npu", //~ non_canonical_platform_literal
        ],
    )
}

// The platform argument of `register_lowering(primitive, rule, platform)`.
pub fn register_sort_lowering() {
    register_lowering(&SORT_P, lower_sort_cuda, "CUDA"); //~ non_canonical_platform_literal
}

// The method form, with a mis-cased name.
pub fn register_fft_lowering(mlir: &mut LoweringTable) {
    mlir.register_lowering(&FFT_P, lower_fft_tpu, "Tpu"); //~ non_canonical_platform_literal
}

// A rule for a platform that does not exist is never used.
pub fn register_eigh_lowering() {
    register_lowering(&EIGH_P, lower_eigh_vulkan, "vulkan"); //~ non_canonical_platform_literal
}

// The platform argument on its own line.
pub fn register_cumsum_lowering() {
    register_lowering(
        &CUMSUM_P,
        lower_cumsum_oneapi,
        "OneAPI", //~ non_canonical_platform_literal
    );
}
