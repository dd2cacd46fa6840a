//! `non_canonical_platform_literal` must stay silent: canonical values
//! compared with canonical names, unknown names, constants and enums.

use xla_bridge::canonicalize_platform;

pub const CUDA: &str = "cuda";

// A canonical value against a canonical name.
pub fn uses_nccl(device: &Device) -> bool {
    canonicalize_platform(device.platform()) == "cuda"
}

// `gpu` spelled out as the platforms it stands for.
pub fn uses_triton(name: &str) -> bool {
    let p = canonicalize_platform(name);
    matches!(p.as_str(), "cuda" | "rocm" | "oneapi")
}

// A `match` whose patterns are all canonical names.
pub fn collective_library(name: &str) -> &'static str {
    match canonicalize_platform(name).as_str() {
        "cuda" => "nccl",
        "rocm" => "rccl",
        "cpu" | "tpu" | "metal" | "oneapi" => "builtin",
        _ => "gloo",
    }
}

// Names that are not platforms we know are never flagged, whatever their case:
// plugins may bring their own platforms.
pub fn is_plugin_platform(name: &str) -> bool {
    let p = canonicalize_platform(name);
    p == "vulkan" || p == "Interpreter" || p == "cuda_matmul"
}

// A `const` holding a canonical name.
pub fn is_cuda(name: &str) -> bool {
    canonicalize_platform(name) == CUDA
}

// Two canonical values compared with each other.
pub fn same_platform(a: &Device, b: &Device) -> bool {
    canonicalize_platform(a.platform()) == canonicalize_platform(b.platform())
}

// Enum comparisons involve no string literal.
pub fn is_cuda_kind(device: &Device) -> bool {
    let p = device.kind();
    p == Platform::Cuda || matches!(p, Platform::Rocm | Platform::OneApi)
}

// A platform string turned into an enum first.
pub fn kind_of(name: &str) -> Platform {
    let kind = Platform::from_canonical(&canonicalize_platform(name));
    if kind == Platform::Metal {
        return Platform::Metal;
    }
    kind
}

// Strings that are not platforms, even when they look like one.
pub fn is_matmul_kernel(kernel_name: &str) -> bool {
    kernel_name == "cuda_matmul" || kernel_name == "gpu_gemm"
}

// `.contains(..)` on a version string is not a comparison with a platform.
pub fn is_gpu_wheel(jaxlib_version: &str) -> bool {
    jaxlib_version.contains("gpu") || jaxlib_version.contains("CUDA")
}

// `.eq_ignore_ascii_case(..)` with a canonical name.
pub fn is_rocm(name: &str) -> bool {
    canonicalize_platform(name).eq_ignore_ascii_case("rocm")
}

// Elements of `platforms` against canonical names.
pub fn lowers_for_rocm(ctx: &ModuleContext) -> bool {
    ctx.platforms[0] == "rocm" || ctx.platforms.iter().any(|p| *p == "cuda")
}

// The length of `platforms` is a number, not a platform.
pub fn is_multi_platform(ctx: &ModuleContext) -> bool {
    ctx.platforms.len() != 1
}

// Assertions with canonical names.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nvidia_is_cuda() {
        assert_eq!(canonicalize_platform("NVIDIA"), "cuda");
        assert_ne!(canonicalize_platform("rocm"), "cuda");
    }
}

// A mis-cased name under `.eq_ignore_ascii_case(..)` does match: not reported.
pub fn is_apple_gpu(name: &str) -> bool {
    canonicalize_platform(name).eq_ignore_ascii_case("Metal")
}
