//! `non_canonical_platform_literal`: canonical platform values matched against
//! string patterns (`match`, `matches!`) and asserted on (`assert_eq!` and
//! friends). Each offending pattern literal is its own finding.

use xla_bridge::canonicalize_platform;

// `match` on `.as_str()` of a canonical value: the `"gpu"` and `"Tpu"` arms
// are dead code.
pub fn default_memory_space(device: &Device) -> MemorySpace {
    match canonicalize_platform(device.platform()).as_str() {
        "cpu" => MemorySpace::Host,
        "gpu" => MemorySpace::Device, //~ non_canonical_platform_literal
        "Tpu" => MemorySpace::Hbm, //~ non_canonical_platform_literal
        _ => MemorySpace::Device,
    }
}

// A `match` on a canonical binding; an or-pattern with one bad literal.
pub fn collective_library(name: &str) -> &'static str {
    let platform = canonicalize_platform(name);
    match platform.as_str() {
        "cuda" | "GPU" => "nccl", //~ non_canonical_platform_literal
        "rocm" => "rccl",
        _ => "gloo",
    }
}

// Two bad literals in one or-pattern, on one line: two findings.
pub fn is_gpu(name: &str) -> bool {
    match canonicalize_platform(name).as_str() {
        "gpu" | "GPU" => true, //~ non_canonical_platform_literal //~ non_canonical_platform_literal
        _ => false,
    }
}

// `matches!` on a canonical value.
pub fn uses_triton(name: &str) -> bool {
    let p = canonicalize_platform(name);
    matches!(p.as_str(), "gpu" | "cuda") //~ non_canonical_platform_literal
}

// `matches!` on the element of a `platforms` field.
pub fn lowers_for_apple(ctx: &ModuleContext) -> bool {
    matches!(ctx.platforms[0], "METAL") //~ non_canonical_platform_literal
}

// Inside a closure over `platforms`.
pub fn any_rocm(ctx: &ModuleContext) -> bool {
    ctx.platforms.iter().any(|p| matches!(*p, "ROCm" | "rocm")) //~ non_canonical_platform_literal
}

// `debug_assert_ne!` and `debug_assert_eq!` on canonical values.
pub fn check_platforms(ctx: &ModuleContext) {
    for platform in &ctx.platforms {
        debug_assert_ne!(platform, "gpu", "aliases are expanded before lowering"); //~ non_canonical_platform_literal
    }
    let first = &ctx.platforms[0];
    debug_assert_eq!(*first, "Cpu"); //~ non_canonical_platform_literal
}

#[cfg(test)]
mod tests {
    use super::*;

    // `assert_eq!` and `assert_ne!` in tests: the first can never pass, the
    // second can never fail.
    #[test]
    fn nvidia_is_a_gpu() {
        assert_eq!(canonicalize_platform("NVIDIA"), "gpu"); //~ non_canonical_platform_literal
        let p = canonicalize_platform("rocm");
        assert_ne!(p, "ROCM"); //~ non_canonical_platform_literal
    }
}
