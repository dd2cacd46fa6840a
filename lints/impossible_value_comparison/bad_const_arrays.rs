//! `impossible_value_comparison`: functions whose values are the elements of
//! a `const` or `static` array of names, as execution-provider enums write
//! them (`NAMES[self as usize]`).

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExecutionProvider {
    Cpu,
    Cuda,
    Rocm,
    CoreMl,
}

impl ExecutionProvider {
    const NAMES: [&'static str; 4] = ["cpu", "cuda", "rocm", "metal"];

    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

// `"tensorrt"` is no name of the array.
pub fn needs_engine_cache(ep: ExecutionProvider) -> bool {
    ep.as_str() == "tensorrt" //~ impossible_value_comparison
}

// A free function indexing a `static` declared further down.
pub fn device_name(index: usize) -> &'static str {
    DEVICE_NAMES[index]
}

pub fn is_gpu(index: usize) -> bool {
    device_name(index) == "gpu" //~ impossible_value_comparison
}

static DEVICE_NAMES: [&str; 3] = ["cpu", "cuda", "tpu"];
