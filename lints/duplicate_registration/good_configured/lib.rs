//! Silent under its own configuration.

pub struct Registry;

impl Registry {
    pub fn register_op(&mut self, _name: &str) {}
    pub fn op_exists(&self, _name: &str) -> bool {
        false
    }
    /// Not a registration function in this configuration (a builder that
    /// accepts repeats, say).
    pub fn register_backend(&mut self, _name: &str) {}
}

pub struct Device;

impl Device {
    pub fn platform(&self) -> &str {
        "cuda"
    }
}

pub fn init(r: &mut Registry) {
    r.register_op("add");
    if !r.op_exists("add") {
        r.register_op("add");
    }
    r.register_backend("cuda");
    r.register_backend("cuda");
}

pub fn raw_is_allowed(dev: &Device) -> bool {
    dev.platform() == "cuda"
}
