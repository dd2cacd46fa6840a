// Integration tests are test code: each function is its own scope.
fn setup() {
    xla::register_backend_factory("rocm", make_rocm_client);
}

#[test]
fn runs() {
    setup();
}
