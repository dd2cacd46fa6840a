//! `impossible_value_comparison`: a device kind whose `Display` writes one
//! name per variant (as burn's and candle's device enums do), and a free
//! function mapping kinds to names, compared with names they never give.
//! Analysed as one crate.

use std::fmt;

#[derive(Clone, Copy, Debug)]
pub enum DeviceKind {
    Cuda,
    Rocm,
    Cpu,
}

impl fmt::Display for DeviceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeviceKind::Cuda => write!(f, "cuda"),
            DeviceKind::Rocm => write!(f, "rocm"),
            DeviceKind::Cpu => f.write_str("cpu"),
        }
    }
}

/// The PJRT plugin name of a kind.
pub fn plugin_platform(kind: DeviceKind) -> &'static str {
    match kind {
        DeviceKind::Cuda => "cuda",
        DeviceKind::Rocm => "rocm",
        DeviceKind::Cpu => "cpu",
    }
}

// `to_string()` gives what `Display` writes: never the alias `"gpu"`.
pub fn is_gpu(kind: &DeviceKind) -> bool {
    kind.to_string() == "gpu" //~ impossible_value_comparison
}

// The free function's values: `"hip"` is not one.
pub fn plugin_file(kind: DeviceKind) -> String {
    if plugin_platform(kind) == "hip" { //~ impossible_value_comparison
        return "libpjrt_rocm.so".to_string();
    }
    format!("libpjrt_{}.so", plugin_platform(kind))
}

// `matches!` with a pattern never written.
pub fn is_host(kind: DeviceKind) -> bool {
    matches!(plugin_platform(kind), "cpu" | "host") //~ impossible_value_comparison
}
