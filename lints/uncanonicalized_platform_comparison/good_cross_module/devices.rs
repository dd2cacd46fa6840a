//! `mod devices;` in `lib.rs` maps to this file (`devices.rs`).

use crate::canonicalize_platform;
use crate::kinds::{Kind, CUDA, TPU};
use crate::Device;

pub struct TypedDevice {
    kind: Kind,
}

impl TypedDevice {
    pub fn platform(&self) -> Kind {
        self.kind
    }
}

// `CUDA` here is `kinds::CUDA`, an enum value, not `names::CUDA`: a typed
// comparison, which no spelling can get wrong.
pub fn is_cuda(dev: &TypedDevice) -> bool {
    dev.platform() == CUDA
}

// The same with `TPU`, on the left.
pub fn is_tpu(dev: &TypedDevice) -> bool {
    TPU == dev.platform()
}

// The canonicalizer imported through the crate root's re-export.
pub fn is_tpu_device(dev: &Device) -> bool {
    canonicalize_platform(dev.platform()) == crate::names::TPU
}
