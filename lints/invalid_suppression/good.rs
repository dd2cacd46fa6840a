//! `invalid_suppression`: prose, documentation and strings that mention the
//! tool are not directives; well-formed directives are not reported.
//!
//! backend-lint: allow(nothing) -- in a doc comment this is prose

/// backend-lint: allow(whatever) -- doc comments are not directives
pub const NOTE: &str = "// backend-lint: allow(nonsense)";
pub const RAW: &str = r#"// backend-lint: allow(nonsense) "quoted""#;
pub const QUOTE: char = '"'; // a quote character does not start a string

// backend-lint is run in CI on every pull request.
// This comment explains backend-lint: it is prose, not a directive.
// backend-lint: this registration is deliberate, see the design notes.
/* backend-lint: allow(nonsense) */

pub struct Registry;

impl Registry {
    pub fn register_backend(&mut self, _name: &str, _factory: fn()) {}
}

fn factory() {}

pub fn init(r: &mut Registry) {
    r.register_backend("cpu", factory);
    // backend-lint: allow(duplicate_registration) -- the registry keeps the first, on purpose
    r.register_backend("cpu", factory);
    r.register_backend("cpu", factory); // backend-lint: allow(backend_lint::duplicate_registration)
}
