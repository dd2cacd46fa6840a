//! `uncanonicalized_platform_comparison`: raw platform values compared with
//! string constants defined in other modules of the crate, reached through
//! `use`, paths, renames, globs and re-exports. Analysed as one crate.

pub mod devices;
pub mod legacy;
pub mod names;

pub use names::ONEAPI;

use crate::names::CUDA;

pub struct Device {
    pub id: u32,
    pub platform: String,
}

impl Device {
    pub fn platform(&self) -> &str {
        &self.platform
    }

    pub fn platform_name(&self) -> Option<&str> {
        Some(&self.platform)
    }
}

// A constant imported with `use crate::..`.
pub fn is_cuda(dev: &Device) -> bool {
    dev.platform() == CUDA //~ uncanonicalized_platform_comparison
}

// A constant named by its path, without a `use`.
pub fn is_tpu(dev: &Device) -> bool {
    dev.platform == names::TPU //~ uncanonicalized_platform_comparison
}

// The canonicalizer the fixes call: a fix names only what the crate defines.
pub fn canonicalize_platform(platform: &str) -> String {
    platform.to_ascii_lowercase()
}
