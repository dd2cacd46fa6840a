//! `uncanonicalized_platform_comparison`: near misses of `bad_adapters.rs`
//! that must stay silent, for this lint and every other one.

// `Some("..")` patterns on something that is not a platform value.
pub fn backend_from_config(config: &Config) -> &'static str {
    match config.get("backend") {
        Some("cuda") => "cublas",
        Some("rocm") => "rocblas",
        _ => "xla_dot",
    }
}

// Canonical values behind the same adapters and conversions.
pub fn canonical_cuda(dev: &Device) -> bool {
    let platform = canonicalize_platform(dev.platform());
    ["cuda", "rocm"].contains(&platform.as_str())
        && platform.to_uppercase() == "CUDA"
        && Some(platform.as_str()).is_some_and(|p| p == "cuda")
}

// Closures of adapters on values that are not platforms.
pub fn kernel_names(names: &[String]) -> Vec<bool> {
    names.iter().map(|n| n == "cuda").collect()
}

pub fn named_cuda(dev: &Device) -> bool {
    dev.name().is_some_and(|n| n == "cuda")
}

// A list searched for something else than a platform value.
pub fn known_kernel(kernel: &str) -> bool {
    ["cuda", "rocm"].contains(&kernel)
}

// Properties of the raw string inside a closure are not comparisons.
pub fn has_platform(dev: &Device) -> bool {
    dev.platform_name().is_some_and(|p| !p.is_empty())
}
