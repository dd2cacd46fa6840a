//! Current backend and plugin names.

pub const CUDA: &str = "cuda";
pub const CUDA_IPC: &str = concat!("cu", "da", "_ipc");
pub(crate) const TPU: &str = "tpu";
pub static ROCM: &str = "rocm";
pub const ONEAPI: &str = "oneapi";
