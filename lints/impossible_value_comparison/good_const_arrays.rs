//! Near misses of `bad_const_arrays.rs`: names the array holds, arrays
//! whose elements are not all literals, locals, two arrays of one name.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExecutionProvider {
    Cpu,
    Cuda,
}

impl ExecutionProvider {
    const NAMES: [&'static str; 2] = ["cpu", "cuda"];

    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

// A name of the array.
pub fn is_cuda(ep: ExecutionProvider) -> bool {
    ep.as_str() == "cuda"
}

// An element that is not a literal: its value is not known here.
const TENSORRT: &str = "tensorrt";
const PROVIDERS: [&str; 2] = ["cuda", TENSORRT];

pub fn provider(i: usize) -> &'static str {
    PROVIDERS[i]
}

pub fn is_tensorrt(i: usize) -> bool {
    provider(i) == "tensorrt"
}

// A local array: any value.
pub fn local_name(i: usize) -> &'static str {
    let names = ["cpu", "cuda"];
    names[i]
}

pub fn is_rocm(i: usize) -> bool {
    local_name(i) == "rocm"
}

// Two arrays of one name in two modules: which one is indexed?
pub mod first {
    pub const LABELS: [&str; 2] = ["cpu", "cuda"];

    pub fn label(i: usize) -> &'static str {
        LABELS[i]
    }
}

pub mod second {
    pub const LABELS: [&str; 2] = ["cpu", "vulkan"];
}

pub fn is_vulkan(i: usize) -> bool {
    first::label(i) == "vulkan"
}
