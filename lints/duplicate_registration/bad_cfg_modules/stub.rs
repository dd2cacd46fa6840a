//! Placeholders for builds without feature `a`.

// `common.rs` registers `tpu` unconditionally: it is compiled in every build,
// so also in the builds that compile this file.
pub fn init() {
    crate::REGISTRY.register_backend("tpu", make_unavailable_client); //~ duplicate_registration
}
