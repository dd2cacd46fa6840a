//! `allow-file(..)` covers every finding of the file, wherever it is.

// backend-lint: allow-file(uncanonicalized_platform_comparison) -- a test double of a device

pub struct Device {
    pub platform: String,
}

impl Device {
    pub fn platform(&self) -> &str {
        &self.platform
    }
}

pub fn is_cuda(dev: &Device) -> bool {
    dev.platform() == "cuda"
}

pub fn is_tpu(dev: &Device) -> bool {
    dev.platform() == "tpu"
}
