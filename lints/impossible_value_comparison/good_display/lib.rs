//! `impossible_value_comparison`: near misses of `bad_display/`: a
//! `Display` with a formatted argument, a `Debug` impl, a function with
//! two `#[cfg]` variants returning other names, and comparisons with the
//! values given. Analysed as one crate.

use std::fmt;

#[derive(Clone, Copy)]
pub enum DeviceKind {
    Cuda(u32),
    Cpu,
}

// Writes more than literals: `cuda:0`.
impl fmt::Display for DeviceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeviceKind::Cuda(i) => write!(f, "cuda:{i}"),
            DeviceKind::Cpu => write!(f, "cpu"),
        }
    }
}

pub struct Kind;

// `Debug` does not decide `to_string()`.
impl fmt::Debug for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cuda")
    }
}

#[cfg(feature = "rocm")]
pub fn default_platform(_kind: Kind) -> &'static str {
    "rocm"
}

#[cfg(not(feature = "rocm"))]
pub fn default_platform(_kind: Kind) -> &'static str {
    "cuda"
}

pub fn is_cuda_device(kind: &DeviceKind) -> bool {
    kind.to_string() == "cuda:0"
}

pub fn is_rocm(kind: Kind) -> bool {
    default_platform(kind) == "rocm"
}

pub fn is_cpu(kind: DeviceKind) -> bool {
    kind.to_string() == "cpu"
}
