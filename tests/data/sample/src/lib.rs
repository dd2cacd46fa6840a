//! A small runtime with one bug of each kind, for the CLI tests.
mod names;

pub fn init() {
    REGISTRY.register_backend("cuda", make_cuda);
}

pub fn pick(devices: &[Device]) -> Option<&Device> {
    devices.iter().find(|d| d.platform() == "gpu")
}
