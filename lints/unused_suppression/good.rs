//! `unused_suppression`: directives that do silence a finding (and the
//! findings they silence) are not reported.

pub struct Device {
    pub platform: String,
}

impl Device {
    pub fn platform(&self) -> &str {
        &self.platform
    }
}

pub fn trailing(dev: &Device) -> bool {
    dev.platform() == "cuda" // backend-lint: allow(uncanonicalized_platform_comparison) -- the test rig reports "cuda"
}

pub fn above(dev: &Device) -> bool {
    // backend-lint: allow(uncanonicalized_platform_comparison) -- the reason may
    // go on over several comment lines
    dev.platform() == "cuda"
}

pub struct Registry;

impl Registry {
    pub fn register_backend(&mut self, _name: &str, _factory: fn()) {}
}

fn factory() {}

pub fn init(r: &mut Registry) {
    r.register_backend("cpu", factory);
    r.register_backend("cpu", factory); // backend-lint: allow(duplicate_registration)
}
