use crate::plugins::{registry, DevicePlugin};

struct Cuda;

impl DevicePlugin for Cuda {
    fn platform(&self) -> &'static str {
        "cuda"
    }
}

fn make_cuda() -> Box<dyn DevicePlugin> {
    Box::new(Cuda)
}

pub fn load() -> Result<(), String> {
    registry().register("cuda", make_cuda)
}
