//! A nested module file: `devices/filters.rs`.

use crate::names::*;
use crate::legacy::DEFAULT_PLATFORM;
use crate::Device;

// A constant imported by a glob, in a closure over devices.
pub fn cpus(devices: &[Device]) -> Vec<&Device> {
    devices.iter().filter(|d| d.platform() == CPU).collect() //~ uncanonicalized_platform_comparison
}

// Two modules define `DEFAULT_PLATFORM` with different values; the `use`
// above picks `legacy`'s. Either way it is a string compared with a raw value.
pub fn on_default(dev: &Device) -> bool {
    dev.platform() == DEFAULT_PLATFORM //~ uncanonicalized_platform_comparison
}

// `assert_eq!` with a constant from another module.
pub fn check_metal(dev: &Device) {
    assert_eq!(dev.platform(), METAL); //~ uncanonicalized_platform_comparison
}
