//! The ROCm backend, copied from the CUDA one.

use crate::names::*;

// A glob import brings `ONEAPI` into scope.
pub fn init_devices(devices: &mut DeviceRegistry) {
    devices.register_device(ONEAPI, oneapi_device(0));
    devices.register_device("oneapi", oneapi_device(1)); //~ duplicate_registration
}

// The second half of the case in `backends/cuda.rs`: the copied loader still
// registers the CUDA plugin's name, here as a literal.
pub fn load_plugin() {
    xla_bridge::register_plugin("xla_cuda_plugin", load_pjrt_plugin("libpjrt_rocm.so")); //~ duplicate_registration
}
