//! A crate whose one fact is a normalized value compared (whisper-rs's
//! Vulkan device list): nothing else makes its structure needed.

pub struct Device {
    pub name: String,
}

pub fn first_nvidia(devices: &[Device]) -> Option<&Device> {
    devices
        .iter()
        .find(|d| d.name.to_lowercase().starts_with("NVIDIA")) //~ impossible_value_comparison
}
