//! `duplicate_registration` must stay silent: a second registration whose
//! result is asserted to be an error. The test checks that the registry
//! rejects the duplicate; the call registers nothing. The first, normal call
//! is still a registration, so every case uses its own key.

#[cfg(test)]
mod tests {
    use super::*;

    // `assert!(.. .is_err())`.
    #[test]
    fn duplicate_backend_is_rejected() {
        let mut registry = Registry::default();
        registry.register_backend("cuda", make_fake_client).unwrap();
        assert!(registry.register_backend("cuda", make_fake_client).is_err());
    }

    // `assert_eq!(.., Err(..))`.
    #[test]
    fn duplicate_backend_reports_already_exists() {
        let mut registry = Registry::default();
        registry.register_backend("rocm", make_fake_client).unwrap();
        assert_eq!(
            registry.register_backend("rocm", make_fake_client),
            Err(Error::AlreadyExists)
        );
    }

    // `assert!(matches!(.., Err(..)))`.
    #[test]
    fn duplicate_platform_is_rejected() {
        let mut registry = Registry::default();
        registry.register_platform("tpu", TpuPlatform::fake()).unwrap();
        assert!(matches!(
            registry.register_platform("tpu", TpuPlatform::fake()),
            Err(_)
        ));
    }

    // `.unwrap_err()`.
    #[test]
    fn duplicate_plugin_error_names_the_plugin() {
        let mut plugins = PluginRegistry::default();
        plugins.register_plugin("xla_cuda_plugin", FakePlugin::new()).unwrap();
        let err = plugins
            .register_plugin("xla_cuda_plugin", FakePlugin::new())
            .unwrap_err();
        assert!(err.to_string().contains("xla_cuda_plugin"));
    }

    // `.expect_err(..)`, with keys that differ only in case.
    #[test]
    fn duplicate_metal_backend_is_rejected_ignoring_case() {
        let mut registry = Registry::default();
        registry.register_kernel("metal_sort", fake_kernel).unwrap();
        registry
            .register_kernel("METAL_SORT", fake_kernel)
            .expect_err("names are compared ignoring case");
    }

    // Several asserted calls after one normal call: none of them registers.
    #[test]
    fn every_duplicate_is_rejected() {
        let mut targets = CustomCallTargets::default();
        targets.register_custom_call_target("lapack_sgetrf", fake_target).unwrap();
        assert!(targets.register_custom_call_target("lapack_sgetrf", fake_target).is_err());
        targets
            .register_custom_call_target("lapack_sgetrf", fake_target)
            .unwrap_err();
    }
}

// Outside tests too: a start-up self-check that the registry rejects a
// second `interpreter` backend (`assert!` with a message).
pub fn check_registry_rejects_duplicates(registry: &mut Registry) {
    registry.register_backend("interpreter", make_interpreter_client).unwrap();
    assert!(
        registry.register_backend("interpreter", make_interpreter_client).is_err(),
        "a second `interpreter` backend was accepted"
    );
}
