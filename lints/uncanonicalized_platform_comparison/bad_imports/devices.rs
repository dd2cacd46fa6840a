//! Devices by platform.

use crate::Device;

pub fn is_cuda(dev: &Device) -> bool {
    dev.platform() == "CUDA" //~ uncanonicalized_platform_comparison
}

pub fn is_tpu(dev: &Device) -> bool {
    dev.platform() == "tpu" //~ uncanonicalized_platform_comparison
}

mod inner {
    pub fn is_rocm(dev: &crate::Device) -> bool {
        dev.platform() == "rocm" //~ uncanonicalized_platform_comparison
    }
}
