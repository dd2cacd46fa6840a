//! `impossible_value_comparison`: a closed set of names made with a
//! platform's (`libtorch<cuda>`), as a backend's `name()` writes them.

pub enum TorchDevice {
    Cpu,
    Cuda(usize),
    Mps,
    Vulkan,
}

pub struct Torch;

impl Torch {
    pub fn name(device: &TorchDevice) -> String {
        match device {
            TorchDevice::Cpu => "libtorch<cpu>",
            TorchDevice::Cuda(_) => "libtorch<cuda>",
            TorchDevice::Mps => "libtorch<metal>",
            TorchDevice::Vulkan => "libtorch<vulkan>",
        }
        .to_string()
    }
}

// Metal Performance Shaders says `libtorch<metal>`: never true.
pub fn supports_f64(device: &TorchDevice) -> bool {
    Torch::name(device) != "libtorch<mps>" //~ impossible_value_comparison
}
