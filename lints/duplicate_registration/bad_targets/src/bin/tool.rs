// Another binary: it links the library too.
fn main() {
    xla::register_backend_factory("tpu", make_tpu_client); //~ duplicate_registration
}
