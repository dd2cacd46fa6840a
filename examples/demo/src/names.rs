//! Canonical platform names, as lowering and registration spell them.

pub const CPU: &str = "cpu";
pub const CUDA: &str = "cuda";
