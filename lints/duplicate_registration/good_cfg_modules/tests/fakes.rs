//! Fakes for the tests: declared by `tests/mod.rs`, so under `cfg(test)` too.

pub fn make_fake_client() -> Client {
    Client::fake()
}

// A helper that registers the fake backend: test code, its own scope.
pub fn registry_with_fake_tpu() -> Registry {
    let mut registry = Registry::default();
    registry.register_backend("tpu", make_fake_client);
    registry
}
