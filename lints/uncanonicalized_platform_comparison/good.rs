//! `uncanonicalized_platform_comparison`: near misses that must stay silent,
//! for this lint and every other one.

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

    pub fn platform_version(&self) -> &str {
        "cuda 12.4"
    }

    // A method named `canonicalize_platform` compares the raw field: that is
    // its job, so nothing in its body is reported.
    pub fn canonicalize_platform(&self) -> String {
        if self.platform == "gpu" || self.platform.eq_ignore_ascii_case("cuda") {
            return "cuda".to_string();
        }
        match self.platform.as_str() {
            "CPU" | "host" => "cpu".to_string(),
            other => other.to_lowercase(),
        }
    }
}

pub mod xla_bridge {
    // The free canonicalizer: raw comparisons inside are its job too.
    pub fn canonicalize_platform(platform: &str) -> String {
        let lower = platform.to_lowercase();
        match lower.as_str() {
            "gpu" => "cuda".to_string(),
            _ => lower,
        }
    }
}

use xla_bridge::canonicalize_platform;

pub struct Module {
    pub platforms: Vec<String>,
}

#[derive(PartialEq, Eq)]
pub enum Platform {
    Cpu,
    Cuda,
    Tpu,
}

pub struct TypedDevice {
    kind: Platform,
}

impl TypedDevice {
    pub fn platform(&self) -> &Platform {
        &self.kind
    }
}

pub struct Kernel {
    pub name: String,
}

// Canonicalized before the comparison, by the bare and the qualified path.
pub fn canonicalized(dev: &Device) -> bool {
    canonicalize_platform(dev.platform()) == "cuda"
        || xla_bridge::canonicalize_platform(&dev.platform) != "cpu"
}

// Shadowed by its canonical form: `p` is canonical from then on.
pub fn shadowed_canonical(dev: &Device) -> bool {
    let p = dev.platform();
    let p = canonicalize_platform(p);
    p == "cuda"
}

// A raw binding in an inner block does not leak out of it.
pub fn inner_shadow_ends(dev: &Device) -> bool {
    let p = canonicalize_platform(dev.platform());
    {
        let p = dev.platform();
        let _ = p.len();
    }
    p == "rocm"
}

// Wrappers around a canonical value keep it canonical.
pub fn canonical_through_wrappers(dev: &Device) -> bool {
    let p = canonicalize_platform(dev.platform()).to_string();
    p.as_str() == "tpu"
}

// `match` and `matches!` on a canonical value, with canonical patterns.
pub fn kernel_for(dev: &Device) -> &'static str {
    match canonicalize_platform(dev.platform()).as_str() {
        "cuda" => "cublas_gemm",
        "rocm" => "hipblas_gemm",
        _ => "xla_dot",
    }
}

pub fn is_gpu(dev: &Device) -> bool {
    matches!(canonicalize_platform(dev.platform()).as_str(), "cuda" | "rocm" | "oneapi")
}

// Assertions and closures on canonical values.
pub fn cpu_devices(devices: &[Device]) -> Vec<&Device> {
    let found: Vec<&Device> = devices
        .iter()
        .filter(|d| canonicalize_platform(d.platform()) == "cpu")
        .collect();
    if let Some(first) = found.first() {
        assert_eq!(canonicalize_platform(first.platform()), "cpu");
    }
    found
}

// Two canonical values compared with each other.
pub fn same_platform(a: &Device, b: &Device) -> bool {
    canonicalize_platform(a.platform()) == canonicalize_platform(b.platform())
}

// A canonical literal bound with `let`, compared with a canonical value.
pub fn canonical_binding(dev: &Device) -> bool {
    let wanted = "cuda";
    canonicalize_platform(dev.platform()) == wanted
}

// Elements of `platforms` are lowering platforms: canonical already.
pub fn lowering_platforms(module: &Module) -> bool {
    let first_is_cpu = module.platforms[0] == "cpu";
    let any_cuda = module.platforms.iter().any(|p| p == "cuda");
    let mut tpus = 0;
    for p in &module.platforms {
        if p == "tpu" {
            tpus += 1;
        }
    }
    first_is_cpu || any_cuda || tpus > 0
}

// Enum comparisons are typed: no spelling can go wrong.
pub fn enum_platform(dev: &TypedDevice) -> u32 {
    if dev.platform() == &Platform::Cuda {
        return 2;
    }
    match dev.platform() {
        Platform::Tpu => 8,
        Platform::Cpu | Platform::Cuda => 1,
    }
}

// Strings that are not platform values, even when they mention one.
pub fn kernel_names(kernel: &Kernel, kernel_name: &str) -> bool {
    kernel_name == "cuda_matmul" || kernel.name == "rocm_gemm"
}

// `.contains(..)` on a version string is not a platform comparison.
pub fn cuda_12(dev: &Device) -> bool {
    dev.platform_version().contains("cuda 12")
}

// A raw value compared with a value of unknown origin (a parameter, a call):
// the lint cannot tell whether `wanted` is canonical, so it says nothing.
pub fn compared_with_parameter(dev: &Device, wanted: &str) -> bool {
    dev.platform() == wanted || dev.platform_name() == Some(wanted)
}

// A parameter named `platform` is not a raw value: callers may have
// canonicalized it already.
pub fn is_cpu(platform: &str) -> bool {
    platform == "cpu"
}

// Reading the raw value without comparing it is fine.
pub fn describe(dev: &Device) -> String {
    format!("device {} on {}", dev.id, dev.platform())
}

// `platform` of an OS or a build target, compared with names that are not
// accelerator platforms: not ours.
pub fn host_checks(info: &HostInfo, cfg: &BuildConfig) -> bool {
    info.platform() == "linux" || cfg.platform == "wasm32"
}
