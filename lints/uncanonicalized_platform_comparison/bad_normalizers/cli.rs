//! The callers: each compares the value as the user wrote it, and hands
//! the same value to a normalizer.

use std::str::FromStr;

use crate::runtime::{Device, parse_device, runtime_for_name};

pub fn pick(flag: Option<&str>, cuda: bool) -> Option<bool> {
    let runtime = match flag {
        Some(rt) => rt,
        None if cuda => "cuda",
        None => "default",
    };
    // Device runtimes keep their weights in the device arena.
    let device_runtime = matches!(runtime, "cuda" | "metal"); //~ uncanonicalized_platform_comparison
    let _rt = runtime_for_name(runtime)?;
    Some(device_runtime)
}

pub fn first_usable(names: &[String], force_cpu: bool) -> Option<String> {
    for name in names {
        if runtime_for_name(name).is_some() {
            assert!(!force_cpu || *name == "cpu"); //~ uncanonicalized_platform_comparison
            return Some(name.clone());
        }
    }
    None
}

pub fn pinned(device: String) -> Result<bool, String> {
    let parsed = parse_device(&device)?;
    Ok(parsed == Device::Cuda && device.as_str() != "cuda") //~ uncanonicalized_platform_comparison
}

pub fn from_flag(flag: &str) -> bool {
    let device: Device = flag.parse::<Device>().unwrap_or(Device::Cpu);
    match flag { //~ uncanonicalized_platform_comparison
        "cuda" => device == Device::Cuda,
        _ => false,
    }
}

pub fn from_env(value: String) -> bool {
    let device = Device::from_str(&value).ok();
    device.is_some() && value == "cpu" //~ uncanonicalized_platform_comparison
}

/// The command line, as parsed.
pub struct Args {
    pub device: String,
    pub backend: String,
}

impl Args {
    pub fn device(&self) -> Result<Device, String> {
        parse_device(&self.device)
    }

    /// Another method compares the field as the user typed it.
    pub fn wants_cuda(&self) -> bool {
        self.device == "cuda" //~ uncanonicalized_platform_comparison
    }
}

pub fn start(args: &Args) -> bool {
    runtime_for_name(&args.backend).is_some()
}

pub fn on_host(args: &Args) -> bool {
    args.backend.as_str() == "cpu" //~ uncanonicalized_platform_comparison
}

/// The session's method normalizes; the caller compares first.
pub fn open(session: &crate::runtime::Session, name: &str) -> bool {
    let metal = name == "metal"; //~ uncanonicalized_platform_comparison
    metal && session.backend_of(name).is_some()
}
