//! `uncanonicalized_platform_comparison`: a raw platform looked up in a
//! `const` or `static` list of names, as in a literal list.

pub struct Device {
    platform: String,
}

impl Device {
    pub fn platform(&self) -> &str {
        &self.platform
    }
}

const GPU_PLATFORMS: &[&str] = &["gpu", "cuda", "rocm"];

pub fn uses_gpu_kernels(dev: &Device) -> bool {
    GPU_PLATFORMS.contains(&dev.platform()) //~ uncanonicalized_platform_comparison
}

pub fn is_accelerator(dev: &Device) -> bool {
    let platform = dev.platform();
    ACCELERATORS.contains(&platform) //~ uncanonicalized_platform_comparison
}

static ACCELERATORS: [&str; 2] = ["tpu", "metal"];

// The canonicalizer the fixes call: a fix names only what the crate defines.
pub fn canonicalize_platform(platform: &str) -> String {
    platform.to_ascii_lowercase()
}
