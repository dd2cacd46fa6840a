fn main() {
    backend_lint_fixture::init_backends();
    xla::register_backend_factory("tpu", make_tpu_client); //~ duplicate_registration
}
