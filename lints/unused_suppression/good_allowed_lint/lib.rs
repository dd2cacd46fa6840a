//! With `duplicate_registration = "allow"`, neither the duplicate nor the
//! (now unneeded) comment is reported.

pub struct Registry;

impl Registry {
    pub fn register_backend(&mut self, _name: &str, _factory: fn()) {}
}

fn factory() {}

pub fn init(r: &mut Registry) {
    r.register_backend("cpu", factory);
    r.register_backend("cpu", factory);
    // backend-lint: allow(duplicate_registration) -- nothing below registers twice
    r.register_backend("tpu", factory);
}
