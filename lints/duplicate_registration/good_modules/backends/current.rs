//! Current backends.

use super::super::names as n;
use crate::names::*;

// `n` is `crate::names` here and `crate::legacy_names` in `legacy.rs`.
pub fn init_rocm(devices: &mut DeviceRegistry) {
    devices.register_device(n::ROCM, rocm_device(0));
}

// A local item shadows the glob import: `ONEAPI` here is `"oneapi_level_zero"`.
const ONEAPI: &str = "oneapi_level_zero";

pub fn init_oneapi(platforms: &mut PlatformTable) {
    platforms.register_platform(ONEAPI, LevelZeroPlatform::discover());
    platforms.register_platform("oneapi", OneApiPlatform::discover());
}
