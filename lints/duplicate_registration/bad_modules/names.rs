//! Backend and plugin names shared by the rest of the crate.

pub const CUDA: &str = "cuda";
pub(crate) const TPU: &str = "tpu";
pub static METAL: &str = "metal";
pub const ROCM: &str = concat!("ro", "cm");
pub const ONEAPI: &str = "oneapi";
pub const CUDA_PLUGIN: &str = "xla_cuda_plugin";
pub(crate) static HOST_CALLBACK: &str = "host_callback";
pub const CU_SORT: &str = "cu_sort";

pub mod lowering {
    pub const TPU_PLATFORM: &str = "tpu";
}
