//! HIP's plugin: copied from the CUDA one, and its name left as it was.
use crate::plugins::DevicePlugin;

struct Hip;

impl DevicePlugin for Hip {
    fn platform(&self) -> &'static str {
        "rocm"
    }
}

fn make_hip() -> Box<dyn DevicePlugin> {
    Box::new(Hip)
}

pub fn load() -> Result<(), String> {
    crate::plugins::registry().register("cuda", make_hip) //~ duplicate_registration
}
