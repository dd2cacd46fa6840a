//! `non_canonical_platform_literal`: canonical platform values compared with
//! `==`, `!=`, `.eq(..)`, `.ne(..)` and `.eq_ignore_ascii_case(..)` against an
//! alias (`"gpu"`) or a mis-cased name (`"CUDA"`). The marker sits on the line
//! of the offending literal.

use xla_bridge as xb;
use xla_bridge::canonicalize_platform;

// The result of `canonicalize_platform(..)` is never the alias `gpu`.
pub fn uses_gpu_kernels(device: &Device) -> bool {
    canonicalize_platform(device.platform()) == "gpu" //~ non_canonical_platform_literal
}

// Any path ending in `canonicalize_platform` counts; canonical names are lower case.
pub fn needs_nccl(d: &Device) -> bool {
    xb::canonicalize_platform(d.platform()) != "CUDA" //~ non_canonical_platform_literal
}

// The literal on the left-hand side.
pub fn is_tpu(name: &str) -> bool {
    "Tpu" == canonicalize_platform(name) //~ non_canonical_platform_literal
}

// A `let` binding initialised from a canonical value is canonical.
pub fn memory_kind(backend_name: &str) -> MemoryKind {
    let platform = canonicalize_platform(backend_name);
    if platform == "GPU" { //~ non_canonical_platform_literal
        MemoryKind::Device
    } else {
        MemoryKind::Host
    }
}

// Shadowing: the second `p` is canonical, whatever the first one held.
pub fn supports_bf16(dev: &Device) -> bool {
    let p = dev.platform();
    let p = canonicalize_platform(p);
    p == "ROCM" || p == "tpu" //~ non_canonical_platform_literal
}

// Elements of a `platforms` field are lowering platforms, which are canonical.
pub fn first_platform_is_gpu(ctx: &LoweringRuleContext) -> bool {
    ctx.platforms[0] == "gpu" //~ non_canonical_platform_literal
}

// A `for` loop over a `platforms` field binds canonical values.
pub fn collect_gpu_rules(ctx: &ModuleContext, rules: &mut Vec<LoweringRule>) {
    for p in &ctx.platforms {
        if *p == "Cuda" { //~ non_canonical_platform_literal
            rules.push(LoweringRule::cuda());
        }
    }
}

// The parameter of a closure over a `platforms` field is canonical.
pub fn lowers_for_gpu(ctx: &ModuleContext) -> bool {
    ctx.platforms.iter().any(|p| *p == "gpu") //~ non_canonical_platform_literal
}

// A binding of an element of `platforms` is canonical too.
pub fn lead_platform_uses_nvptx(ctx: &ModuleContext) -> bool {
    let lead = &ctx.platforms[0];
    lead == "GPU" //~ non_canonical_platform_literal
}

// A canonical string literal bound with `let` is a canonical value.
pub fn default_device_kind() -> DeviceKind {
    let platform = "cuda";
    if platform == "CUDA" { //~ non_canonical_platform_literal
        DeviceKind::Accelerator
    } else {
        DeviceKind::Host
    }
}

// `.eq(..)` and `.ne(..)`.
pub fn pick_allocator(device: &Device) -> Allocator {
    let platform = canonicalize_platform(device.platform());
    if platform.eq("gpu") { //~ non_canonical_platform_literal
        Allocator::Bfc
    } else if platform.ne("Metal") { //~ non_canonical_platform_literal
        Allocator::Platform
    } else {
        Allocator::Unified
    }
}

// `.eq_ignore_ascii_case(..)` ignores case, not aliases: `gpu` still never matches.
pub fn wants_gpu_sharding(device: &Device) -> bool {
    canonicalize_platform(device.platform()).eq_ignore_ascii_case("gpu") //~ non_canonical_platform_literal
}

// Two findings starting on one line.
pub fn is_accelerator(name: &str) -> bool {
    let platform = canonicalize_platform(name);
    platform == "GPU" || platform == "TPU" //~ non_canonical_platform_literal //~ non_canonical_platform_literal
}
