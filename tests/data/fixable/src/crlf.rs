// backend-lint: allow-file(lowering_backend_mismatch, duplicate_registration)
pub fn tpu(d: &Device) -> bool {
    canonicalize_platform(d.platform()) == "tpu"
}
