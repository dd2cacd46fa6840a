//! Platform names, some defined as others.

pub const CUDA: &str = "cuda";
pub const CPU: &str = "cpu";
pub const DEFAULT_PLATFORM: &str = CUDA;
pub const HOST: &str = self::CPU;
