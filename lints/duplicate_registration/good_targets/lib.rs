//! Cargo targets that never share a process: each example, bench and
//! integration test is a binary of its own.
pub fn init(registry: &mut Registry) {
    registry.register_backend("lib_only", make_client);
}
