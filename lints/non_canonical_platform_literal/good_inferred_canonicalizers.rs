//! `non_canonical_platform_literal`: near misses of
//! `bad_inferred_canonicalizers.rs`: an inferred canonicalizer compared with
//! canonical names, and `.eq_ignore_ascii_case` with a mis-cased one.

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

pub fn canonical_of(dev: &Device) -> String {
    canonicalize_platform(dev.platform())
}

pub fn is_cuda(dev: &Device) -> bool {
    canonical_of(dev) == "cuda"
}

pub fn is_rocm(dev: &Device) -> bool {
    canonical_of(dev).eq_ignore_ascii_case("ROCM")
}
