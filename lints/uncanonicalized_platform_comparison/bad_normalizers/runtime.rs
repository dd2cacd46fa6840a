//! The normalizers, each in its own idiom.

use std::str::FromStr;

pub struct Runtime(pub &'static str);

/// `default` is the old name of the CPU runtime; `gpu` picks the first GPU
/// runtime that is available.
pub fn runtime_for_name(s: &str) -> Option<Runtime> {
    let s = if s == "default" { "cpu" } else { s };
    if s == "gpu" || s == "gpu-or-cpu" {
        return Some(Runtime("cuda"));
    }
    Some(Runtime(match s {
        "cpu" => "cpu",
        "cuda" => "cuda",
        "metal" => "metal",
        _ => return None,
    }))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Device {
    Cpu,
    Cuda,
}

/// Lowercased first, then one arm per device, aliases beside the name.
pub fn parse_device(name: &str) -> Result<Device, String> {
    match name.trim().to_ascii_lowercase().as_str() {
        "cuda" | "nvidia" => Ok(Device::Cuda),
        "cpu" | "host" => Ok(Device::Cpu),
        other => Err(format!("unknown device {other}")),
    }
}

impl FromStr for Device {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "cuda" | "CUDA" | "Cuda" => Ok(Device::Cuda),
            "cpu" | "CPU" => Ok(Device::Cpu),
            _ => Err(s.to_string()),
        }
    }
}

pub struct Session {
    pub metal: bool,
}

impl Session {
    /// Case does not matter to the session.
    fn wants_metal(&self, name: &str) -> bool {
        name.eq_ignore_ascii_case("metal")
    }

    /// The backend a name picks, whatever its case.
    pub fn backend_of(&self, name: &str) -> Option<&'static str> {
        match name.to_ascii_lowercase().as_str() {
            "metal" => Some("metal"),
            "cpu" => Some("cpu"),
            _ => None,
        }
    }

    pub fn open(&self, name: &str) -> bool {
        let metal = self.wants_metal(name);
        if name == "metal" { //~ uncanonicalized_platform_comparison
            return metal;
        }
        false
    }
}
