//! `uncanonicalized_platform_comparison`: near misses of `bad_cross_module/`
//! that must stay silent, for this lint and every other one: constants from
//! other modules compared with canonical values, and constants that are not
//! strings even though a string constant elsewhere has the same name.
//! Analysed as one crate.

mod bridge;
mod devices;
mod kinds;
mod names;

pub use bridge::canonicalize_platform;

pub struct Device {
    pub id: u32,
    pub platform: String,
}

impl Device {
    pub fn platform(&self) -> &str {
        &self.platform
    }
}

// A canonical value compared with a string constant from another module.
pub fn is_cuda(dev: &Device) -> bool {
    canonicalize_platform(dev.platform()) == names::CUDA
}
