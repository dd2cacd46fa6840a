//! Platform names; the accelerator is a TPU here.

pub const TPU: &str = "tpu";
pub const ACCELERATOR: &str = TPU;
