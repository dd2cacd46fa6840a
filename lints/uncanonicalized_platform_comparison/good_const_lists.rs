//! Near misses of `bad_const_lists.rs`: canonical values, values that are
//! no platform, lists that hold no platform name.

use xla_bridge::canonicalize_platform;

const GPU_PLATFORMS: &[&str] = &["cuda", "rocm"];
const ARCHITECTURES: [&str; 2] = ["x86_64", "aarch64"];

pub fn uses_gpu_kernels(dev: &Device) -> bool {
    GPU_PLATFORMS.contains(&canonicalize_platform(dev.platform()).as_str())
}

pub fn known_kernel(kernel: &str) -> bool {
    GPU_PLATFORMS.contains(&kernel)
}

pub fn native(dev: &Device) -> bool {
    ARCHITECTURES.contains(&dev.arch())
}
