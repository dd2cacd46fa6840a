//! A binary links the library: a registration in each runs in one process.
pub fn init_backends() {
    xla::register_backend_factory("tpu", make_tpu_client);
}
