//! Backends of version 1 of the runtime.

use crate::legacy_names as n;

// `n::ROCM` is `"rocm_v1"`: not the key registered in `current.rs`.
pub fn init_rocm(devices: &mut DeviceRegistry) {
    devices.register_device(n::ROCM, rocm_device(0));
}
