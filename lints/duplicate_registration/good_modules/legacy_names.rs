//! Names used by version 1 of the runtime, registered side by side with the
//! current ones.

pub const TPU: &str = "tpu_v1";
pub static ROCM: &str = "rocm_v1";
pub const ONEAPI: &str = "oneapi_v1";
