//! `mod devices;` in `lib.rs` maps to this file; `mod filters;` below maps to
//! `devices/filters.rs`.

mod filters;

use super::names;
use crate::names::METAL as APPLE_GPU;
use crate::Device;

// A module imported with `use super::..`, the constant by a path through it.
pub fn is_tpu(dev: &Device) -> bool {
    dev.platform() != names::TPU //~ uncanonicalized_platform_comparison
}

// A fully qualified `static`.
pub fn is_rocm(dev: &Device) -> bool {
    dev.platform_name() == Some(crate::names::ROCM) //~ uncanonicalized_platform_comparison
}

// A constant imported under another name.
pub fn is_apple(dev: &Device) -> bool {
    APPLE_GPU == dev.platform() //~ uncanonicalized_platform_comparison
}

// A constant re-exported by the crate root (`pub use names::ONEAPI`).
pub fn is_oneapi(dev: &Device) -> bool {
    let p = dev.platform();
    p == crate::ONEAPI //~ uncanonicalized_platform_comparison
}
