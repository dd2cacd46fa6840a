//! `impossible_value_comparison`: names made with a platform's, compared
//! with one they give; and a set of prose, which is no set of names.

pub enum TorchDevice {
    Cpu,
    Cuda(usize),
}

pub struct Torch;

impl Torch {
    pub fn name(device: &TorchDevice) -> String {
        match device {
            TorchDevice::Cpu => "libtorch<cpu>",
            TorchDevice::Cuda(_) => "libtorch<cuda>",
        }
        .to_string()
    }

    pub fn describe(device: &TorchDevice) -> &'static str {
        match device {
            TorchDevice::Cpu => "running on the CPU",
            TorchDevice::Cuda(_) => "running on a CUDA device",
        }
    }
}

pub fn on_cuda(device: &TorchDevice) -> bool {
    Torch::name(device) == "libtorch<cuda>"
}

// Prose: the set is not recorded, whatever is compared with it.
pub fn says_gpu(device: &TorchDevice) -> bool {
    Torch::describe(device) == "running on the GPU"
}
