//! A tiny JAX-like runtime: backends registered by name, devices that report
//! their platform, and modules lowered for platforms with a backend.
//!
//! It has one bug for each backend-lint lint, marked `BUG(<lint>)`, beside
//! correct code that must stay silent: backend-lint reports exactly five errors
//! and three warnings (one comparison that can never hold, two about
//! suppression comments).

pub mod devices;
pub mod lowering;
pub mod names;
pub mod registry;
pub mod telemetry;

#[derive(Debug)]
pub struct Error(pub String);

/// A device as its plugin reports it.
pub struct Device {
    pub id: usize,
    /// Raw: `"gpu"`, `"cuda"` and `"CUDA"` may all name the same hardware.
    pub platform: String,
}

impl Device {
    pub fn platform(&self) -> &str {
        &self.platform
    }
}

/// The kinds of device the runtime knows, each with its platform's name.
#[derive(Clone, Copy)]
pub enum DeviceKind {
    Cpu,
    Cuda,
}

impl DeviceKind {
    pub fn as_str(self) -> &'static str {
        match self {
            DeviceKind::Cpu => "cpu",
            DeviceKind::Cuda => "cuda",
        }
    }
}

/// The canonical name of a platform: lower case, with the alias `gpu`
/// replaced by the GPU platform that is present (here always CUDA).
pub fn canonicalize_platform(platform: &str) -> String {
    let platform = platform.to_ascii_lowercase();
    match platform.as_str() {
        "gpu" => names::CUDA.to_string(),
        _ => platform,
    }
}
