//! Canonical platform names.

pub const CUDA: &str = "cuda";
pub const TPU: &str = "tpu";
