//! A trait's default method: each implementation may return other names.

pub trait Device {
    fn name(&self) -> &'static str {
        "cpu"
    }

    fn is_gpu(&self) -> bool {
        self.name() == "gpu"
    }
}

pub struct Host;

impl Device for Host {}

// A generic parameter: its type is any `Device`.
pub fn on_gpu<D: Device>(device: &D) -> bool {
    device.name() == "cuda"
}
