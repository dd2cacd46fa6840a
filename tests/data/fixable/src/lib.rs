//! Suppression comments with fixes, for the reports' and clients' tests.
mod crlf;

pub fn init(registry: &mut Registry) {
    registry.register_backend("cuda", make_cuda);
    // backend-lint: allow(duplicate_registrations) -- the test registry accepts both
    registry.register_backend("cuda", make_cuda);
}

pub fn pick(d: &Device) -> bool {
    // backend-lint: allow(uncanonicalized_platform_comparison) -- canonical since
    canonicalize_platform(d.platform()) == "cuda"
}

pub fn pick_raw(d: &Device) -> bool {
    d.platform() == "cuda" // backend-lint: allow(uncanonicalized_platform_comparison, duplicate_registration) -- raw on purpose
}

pub fn first(d: &Device) -> bool {
    canonicalize_platform(d.platform()) == "rocm" // backend-lint: allow(uncanonicalized_platform_comparison)
}
