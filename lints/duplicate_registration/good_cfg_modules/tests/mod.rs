//! Tests: the whole folder is under `cfg(test)` (see `lib.rs`), so every
//! function here builds its own registry.

mod fakes;

use super::*;

// Registers `tpu` like production code does, and like `fakes.rs` does: test
// code is never compared with production code or with other test functions.
#[test]
fn tpu_backend_is_found() {
    let mut registry = Registry::default();
    registry.register_backend("tpu", fakes::make_fake_client);
    assert!(registry.contains("tpu"));
}

#[test]
fn tpu_backend_is_listed() {
    let mut registry = Registry::default();
    registry.register_backend("tpu", fakes::make_fake_client);
    assert_eq!(registry.len(), 1);
}

// A helper of the test module, with no `#[test]`: its own scope too.
fn registry_with_cuda() -> Registry {
    let mut registry = Registry::default();
    registry.register_backend("tpu", fakes::make_fake_client);
    registry.register_backend("cuda", fakes::make_fake_client);
    registry
}

#[test]
fn cuda_factory_is_replaced_by_fake() {
    let mut registry = registry_with_cuda();
    register_backend_factory("cuda", fakes::make_fake_client);
    registry.register_backend("cuda_graphs", fakes::make_fake_client);
}
