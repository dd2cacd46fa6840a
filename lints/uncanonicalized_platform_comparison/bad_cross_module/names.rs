//! Platform names as the rest of the crate spells them.

pub const CUDA: &str = "cuda";
pub const TPU: &str = "tpu";
pub const CPU: &str = "cpu";
pub const METAL: &str = "metal";
pub const ONEAPI: &str = "oneapi";
pub static ROCM: &str = "rocm";

// Also defined, with another value, in `legacy`: a `use` says which one is meant.
pub const DEFAULT_PLATFORM: &str = "cpu";
