//! Tests: the whole file is under `cfg(test)` (see `lib.rs`). Each test
//! function is its own scope, but two registrations in one test function
//! still collide.

use xla_bridge::register_backend_factory;

// Registered twice in this test: the second call fails or replaces the first.
// Not compared with `a_backend.rs` or `b_backend.rs`, nor with the next test.
#[test]
fn fake_cuda_factory_replaces_the_real_one() {
    register_backend_factory("cuda", make_cuda_client);
    register_backend_factory("cuda", make_fake_client); //~ duplicate_registration
}

#[test]
fn fake_cuda_factory_is_used() {
    register_backend_factory("cuda", make_fake_client);
}
