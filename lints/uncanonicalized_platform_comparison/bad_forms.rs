//! `uncanonicalized_platform_comparison`: forms of comparison beyond `==`
//! and `match`: a prefix, suffix or part of a raw platform, `if let`,
//! `let`-`else`, and a guard of `matches!`.

pub struct Device {
    platform: String,
}

impl Device {
    pub fn platform(&self) -> &str {
        &self.platform
    }
}

pub fn is_cuda_family(dev: &Device) -> bool {
    dev.platform().starts_with("cuda") //~ uncanonicalized_platform_comparison
}

pub fn is_rocm_build(dev: &Device) -> bool {
    dev.platform().ends_with("rocm") //~ uncanonicalized_platform_comparison
}

pub fn mentions_gpu(dev: &Device) -> bool {
    dev.platform().contains("gpu") //~ uncanonicalized_platform_comparison
}

pub fn tpu_cores(dev: &Device) -> usize {
    if let "tpu" = dev.platform() { //~ uncanonicalized_platform_comparison
        return 8;
    }
    1
}

pub fn require_cpu(dev: &Device) -> Option<()> {
    let "cpu" = dev.platform() else { //~ uncanonicalized_platform_comparison
        return None;
    };
    Some(())
}

pub fn on_metal(dev: &Device, enabled: bool) -> bool {
    matches!(dev.platform(), p if enabled && p == "metal") //~ uncanonicalized_platform_comparison
}

// The canonicalizer the fixes call: a fix names only what the crate defines.
pub fn canonicalize_platform(platform: &str) -> String {
    platform.to_ascii_lowercase()
}
