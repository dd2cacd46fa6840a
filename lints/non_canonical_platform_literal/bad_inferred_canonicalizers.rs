//! `non_canonical_platform_literal`: a function of the crate that returns a
//! canonicalized platform (`canonical_of`) is a canonicalizer as the
//! configured one is: its result never equals an alias or a mis-cased name.

pub struct Device {
    platform: String,
}

impl Device {
    pub fn platform(&self) -> &str {
        &self.platform
    }
}

pub fn canonicalize_platform(p: &str) -> String {
    p.to_lowercase()
}

/// The device's platform, canonicalized.
pub fn canonical_of(dev: &Device) -> String {
    canonicalize_platform(dev.platform())
}

/// A wrapper of it.
pub fn lowering_platform(dev: &Device) -> String {
    canonical_of(dev)
}

pub fn is_gpu(dev: &Device) -> bool {
    canonical_of(dev) == "gpu" //~ non_canonical_platform_literal
}

pub fn is_cuda(dev: &Device) -> bool {
    lowering_platform(dev) == "CUDA" //~ non_canonical_platform_literal
}
