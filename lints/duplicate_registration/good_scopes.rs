//! `duplicate_registration` must stay silent: guarded registrations, tests
//! that build their own registry, and `macro_rules!` templates.

use xla_bridge::{is_registered, register_backend_factory};

pub const TPU: &str = "tpu";

// A registration guarded by `!is_registered(key)` never fails: it is not
// reported, even after an unguarded registration of the same key.
pub fn init_tpu() {
    register_backend_factory("tpu", make_tpu_client);
    if !is_registered(TPU) {
        register_backend_factory("tpu", make_tpu_client);
    }
}

// Two guarded registrations: neither is reported.
pub fn ensure_cpu(registry: &mut Registry) {
    if !registry.contains("cpu") {
        registry.register_backend("cpu", make_cpu_client);
    }
    if !registry.contains("cpu") {
        registry.register_backend("cpu", make_cpu_client_with_threads(8));
    }
}

// The `contains_key` form, with the key in a `const` on one side only.
pub fn ensure_tpu(registry: &mut Registry) {
    registry.register_platform(TPU, TpuPlatform::default());
    if !registry.contains_key("tpu") {
        registry.register_platform(TPU, TpuPlatform::default());
    }
}

// A `macro_rules!` body is a template, not code that runs: its registrations
// are not analysed, even when the body parses as statements.
macro_rules! register_gpu_backends {
    () => {
        register_backend_factory("cuda", make_cuda_client);
        register_backend_factory("cuda", make_cuda_client);
    };
}

// Production code registers `cuda` once; the template above does not count.
pub fn init_cuda() {
    register_backend_factory("cuda", make_cuda_client);
}

// A `macro_rules!` with arguments, whose body would not even parse as code.
macro_rules! register_all {
    ($registry:expr, $($name:literal => $factory:expr),* $(,)?) => {
        $( $registry.register_backend($name, $factory); )*
    };
}

pub fn init_rocm(registry: &mut Registry) {
    registry.register_backend("rocm", make_rocm_client);
}

#[cfg(test)]
mod tests {
    use super::*;

    // Each test function builds its own registry: the same key in two tests,
    // and in production code, is not a duplicate.
    #[test]
    fn fake_backends_are_registered() {
        let mut registry = Registry::default();
        registry.register_backend("rocm", make_fake_client);
        register_backend_factory("cuda", make_fake_client);
        assert!(registry.contains("rocm"));
    }

    #[test]
    fn fake_backends_are_listed() {
        let mut registry = Registry::default();
        registry.register_backend("rocm", make_fake_client);
        register_backend_factory("cuda", make_fake_client);
        assert!(registry.contains("rocm"));
    }

    // Helpers of a `#[cfg(test)]` module are test code too, one scope each.
    fn registry_with_tpu() -> Registry {
        let mut registry = Registry::default();
        registry.register_platform(TPU, TpuPlatform::fake());
        registry
    }

    #[test]
    fn tpu_platform_is_found() {
        let mut registry = registry_with_tpu();
        registry.register_backend("tpu", make_fake_client);
        assert!(registry.contains("tpu"));
    }
}

// A `#[test]` function outside a test module is its own scope as well.
#[test]
fn cpu_backend_is_registered_once() {
    let mut registry = Registry::default();
    registry.register_backend("cpu", make_fake_client);
    assert!(registry.contains("cpu"));
}
