//! `invalid_suppression`: comments meant as directives that silence nothing.

pub struct Registry;

impl Registry {
    pub fn register_backend(&mut self, _name: &str, _factory: fn()) {}
}

fn factory() {}

pub fn init(r: &mut Registry) {
    // A typo in the lint name: the duplicate below is still reported.
    r.register_backend("cpu", factory);
    // backend-lint: allow(duplicate_registrations) -- //~ invalid_suppression
    r.register_backend("cpu", factory); //~ duplicate_registration
    r.register_backend("tpu", factory); // backend-lint: allow(backend_lint::no_such_lint) -- //~ invalid_suppression
}

// backend-lint: alow(duplicate_registration) -- an unknown directive //~ invalid_suppression
// backend-lint: allow duplicate_registration //~ invalid_suppression
// backend-lint: allow(duplicate_registration because it is fine //~ invalid_suppression
// backend-lint: allow(duplicate_registration) because it is fine //~ invalid_suppression
// backend-lint: allow() -- //~ invalid_suppression
// backend-lint: allow-file() -- //~ invalid_suppression
pub fn more(r: &mut Registry) {
    r.register_backend("cuda", factory);
}
