//! `uncanonicalized_platform_comparison`: near misses of `bad_forms.rs`:
//! the same forms on canonical values, on names that are not platforms,
//! and `contains` of a list that holds no platform.

pub struct Device {
    platform: String,
    name: String,
}

impl Device {
    pub fn platform(&self) -> &str {
        &self.platform
    }
}

pub fn canonicalize_platform(p: &str) -> String {
    p.to_lowercase()
}

pub fn is_cuda_family(dev: &Device) -> bool {
    canonicalize_platform(dev.platform()).starts_with("cuda")
}

pub fn is_debug_build(dev: &Device) -> bool {
    dev.platform().ends_with("-debug")
}

pub fn is_a100(dev: &Device) -> bool {
    dev.name.contains("A100")
}

pub fn tpu_cores(dev: &Device) -> usize {
    if let "tpu" = canonicalize_platform(dev.platform()).as_str() {
        return 8;
    }
    1
}

pub fn is_known(dev: &Device) -> bool {
    ["x86", "arm"].contains(&dev.name.as_str())
}

// No alias stands for `cpu`, and the case is ignored: canonicalizing first
// would change nothing. (`"cuda"` stays a finding: `gpu` stands for it.)
pub fn runs_on_host(dev: &Device) -> bool {
    dev.platform().eq_ignore_ascii_case("cpu")
}
