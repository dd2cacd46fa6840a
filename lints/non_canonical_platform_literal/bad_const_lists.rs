//! `non_canonical_platform_literal`: a canonical platform looked up in a
//! `const` list holding an alias: the alias never matches. The marker sits
//! on the line of the literal, in the list.

use xla_bridge::canonicalize_platform;

const GPU_PLATFORMS: &[&str] = &["gpu", "cuda"]; //~ non_canonical_platform_literal

pub fn uses_gpu_kernels(dev: &Device) -> bool {
    GPU_PLATFORMS.contains(&canonicalize_platform(dev.platform()).as_str())
}
