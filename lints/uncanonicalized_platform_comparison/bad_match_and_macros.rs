//! `uncanonicalized_platform_comparison`: raw platform values compared by
//! `match`, `matches!`, the assertion macros, and inside closures.

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

// A `match` on the raw value with string patterns: one finding, on the scrutinee.
pub fn kernel_for(dev: &Device) -> &'static str {
    match dev.platform() { //~ uncanonicalized_platform_comparison
        "cuda" => "cublas_gemm",
        "rocm" => "hipblas_gemm",
        _ => "xla_dot",
    }
}

// A `match` on `.as_str()` of the field, with or-patterns and a guard.
pub fn memory_space(dev: &Device, pinned: bool) -> u32 {
    match dev.platform.as_str() { //~ uncanonicalized_platform_comparison
        "cuda" | "rocm" if pinned => 2,
        "cuda" | "rocm" => 1,
        _ => 0,
    }
}

// A `match` on a raw binding.
pub fn match_binding(dev: &Device) -> u32 {
    let p = dev.platform();
    match p { //~ uncanonicalized_platform_comparison
        "tpu" => 8,
        _ => 1,
    }
}

// `matches!` with alternatives.
pub fn is_gpu(dev: &Device) -> bool {
    matches!(dev.platform(), "cuda" | "rocm" | "oneapi") //~ uncanonicalized_platform_comparison
}

// `assert_eq!` and `assert_ne!`.
pub fn check_cpu(dev: &Device) {
    assert_eq!(dev.platform(), "cpu"); //~ uncanonicalized_platform_comparison
    assert_ne!(dev.platform(), "tpu", "device {} is a TPU", dev.id); //~ uncanonicalized_platform_comparison
}

// `debug_assert_eq!` and `debug_assert_ne!`, the raw side second.
pub fn debug_checks(dev: &Device) {
    debug_assert_eq!("cuda", dev.platform()); //~ uncanonicalized_platform_comparison
    debug_assert_ne!("metal", dev.platform); //~ uncanonicalized_platform_comparison
}

// A macro call over several lines: the marker is where the raw side starts.
pub fn multi_line_assert(dev: &Device) {
    assert_eq!(
        dev.platform_name().unwrap(), //~ uncanonicalized_platform_comparison
        "tpu",
        "expected a TPU"
    );
}

// Inside a closure passed to an iterator adapter.
pub fn cpu_devices(devices: &[Device]) -> Vec<&Device> {
    devices
        .iter()
        .filter(|d| d.platform() == "cpu") //~ uncanonicalized_platform_comparison
        .collect()
}

// Inside a closure, with a block body and a binding.
pub fn count_tpus(devices: &[Device]) -> usize {
    devices
        .iter()
        .filter(|d| {
            let p = d.platform();
            p == "tpu" //~ uncanonicalized_platform_comparison
        })
        .count()
}

// `if` conditions and `while` loops are comparisons like any other.
pub fn first_non_cpu(devices: &[Device]) -> Option<u32> {
    let mut i = 0;
    while i < devices.len() && devices[i].platform() == "cpu" { //~ uncanonicalized_platform_comparison
        i += 1;
    }
    devices.get(i).map(|d| d.id)
}

// The canonicalizer the fixes call: a fix names only what the crate defines.
pub fn canonicalize_platform(platform: &str) -> String {
    platform.to_ascii_lowercase()
}
