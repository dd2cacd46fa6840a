//! `duplicate_registration`: second registrations whose result is used, but
//! not asserted to be an error. Only an assertion that the call fails makes
//! it a check rather than a registration.
//!
//! Every case uses its own (callee, receiver, key) group.

#[cfg(test)]
mod tests {
    use super::*;

    // `.unwrap()` asserts that the second call succeeds.
    #[test]
    fn cuda_backend_is_replaced() {
        let mut registry = Registry::default();
        registry.register_backend("cuda", make_fake_client).unwrap();
        registry.register_backend("cuda", make_fake_client).unwrap(); //~ duplicate_registration
    }

    // `.is_ok()` is the opposite of `.is_err()`.
    #[test]
    fn rocm_backend_is_replaced() {
        let mut registry = Registry::default();
        registry.register_backend("rocm", make_fake_client).unwrap();
        assert!(registry.register_backend("rocm", make_fake_client).is_ok()); //~ duplicate_registration
    }

    // A negated `.is_err()` asserts success.
    #[test]
    fn tpu_platform_is_replaced() {
        let mut registry = Registry::default();
        registry.register_platform("tpu", TpuPlatform::fake()).unwrap();
        assert!(!registry.register_platform("tpu", TpuPlatform::fake()).is_err()); //~ duplicate_registration
    }

    // `assert_eq!(.., Ok(..))`, and `assert_ne!(.., Err(..))`: both assert
    // that the call succeeds.
    #[test]
    fn plugin_is_replaced() {
        let mut plugins = PluginRegistry::default();
        plugins.register_plugin("xla_cuda_plugin", FakePlugin::new()).unwrap();
        assert_eq!(plugins.register_plugin("xla_cuda_plugin", FakePlugin::new()), Ok(())); //~ duplicate_registration
        assert_ne!(
            plugins.register_plugin("xla_cuda_plugin", FakePlugin::new()), //~ duplicate_registration
            Err(Error::AlreadyExists)
        );
    }

    // `matches!(.., Ok(_))` asserts success.
    #[test]
    fn kernel_is_replaced() {
        let mut registry = Registry::default();
        registry.register_kernel("metal_sort", fake_kernel).unwrap();
        assert!(matches!(registry.register_kernel("metal_sort", fake_kernel), Ok(_))); //~ duplicate_registration
    }

    // `.expect(..)` is not `.expect_err(..)`.
    #[test]
    fn custom_call_is_replaced() {
        let mut targets = CustomCallTargets::default();
        targets.register_custom_call_target("lapack_sgetrf", fake_target).unwrap();
        targets
            .register_custom_call_target("lapack_sgetrf", fake_target) //~ duplicate_registration
            .expect("second registration");
    }

    // An asserted failure after a plain duplicate does not excuse the
    // duplicate before it.
    #[test]
    fn oneapi_backend_is_registered_twice() {
        let mut registry = Registry::default();
        registry.register_backend("oneapi", make_fake_client).unwrap();
        registry.register_backend("oneapi", make_fake_client).unwrap(); //~ duplicate_registration
        assert!(registry.register_backend("oneapi", make_fake_client).is_err());
    }

    // The asserted failure is for another key: the `metal` registration
    // after it is still a duplicate.
    #[test]
    fn metal_backend_is_registered_twice() {
        let mut registry = Registry::default();
        registry.register_backend("metal", make_fake_client).unwrap();
        assert!(registry.register_backend("cpu", make_fake_client).is_err());
        registry.register_backend("metal", make_fake_client).unwrap(); //~ duplicate_registration
    }
}
