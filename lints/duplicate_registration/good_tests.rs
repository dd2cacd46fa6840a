//! `duplicate_registration` must stay silent: test code registering the same
//! keys as production code and as other tests. Each `#[test]` function, and
//! each function of `#[cfg(test)]` code, builds its own registry.

pub fn init(registry: &mut Registry) {
    registry.register_backend("cuda", make_cuda_client);
    registry.register_backend("rocm", make_rocm_client);
}

// A `#[cfg(test)]` function outside a test module is test code.
#[cfg(test)]
fn fake_registry() -> Registry {
    let mut registry = Registry::default();
    registry.register_backend("cuda", make_fake_client);
    registry
}

// A `#[cfg(test)]` impl: each method is its own scope.
#[cfg(test)]
impl Registry {
    fn with_fake_cuda(mut self) -> Self {
        self.register_backend("cuda", make_fake_client);
        self
    }

    fn with_fake_cuda_and_rocm(mut self) -> Self {
        self.register_backend("cuda", make_fake_client);
        self.register_backend("rocm", make_fake_client);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The test registers `cuda` once; the helper it calls registers it too,
    // but in its own scope (calls are not followed).
    #[test]
    fn fake_cuda_is_found() {
        let mut registry = fake_registry();
        registry.register_backend("rocm", make_fake_client);
        assert!(registry.contains("cuda"));
    }

    // Test attributes of other frameworks.
    #[tokio::test]
    async fn rocm_is_found() {
        let mut registry = Registry::default();
        registry.register_backend("rocm", make_fake_client);
        assert!(registry.contains("rocm"));
    }

    #[rstest]
    fn cuda_is_found(#[values("a", "b")] _case: &str) {
        let mut registry = Registry::default();
        registry.register_backend("cuda", make_fake_client);
        assert!(registry.contains("cuda"));
    }

    // A nested module of the test module: test code too.
    mod fixtures {
        pub fn registry() -> Registry {
            let mut registry = Registry::default();
            registry.register_backend("cuda", make_fake_client);
            registry.register_backend("rocm", make_fake_client);
            registry
        }
    }

    // The same key in two branches of one test is one registration per run.
    #[test]
    fn either_backend_is_found() {
        let mut registry = Registry::default();
        if std::env::var_os("USE_ROCM").is_some() {
            registry.register_backend("cuda", make_rocm_client);
        } else {
            registry.register_backend("cuda", make_cuda_client);
        }
        assert!(registry.contains("cuda"));
    }
}

// `cfg(all(test, unix))` is test code too: its helper is not production code.
pub fn init_prod_callback(r: &mut Registry) {
    r.register_callback("host_cb_unix", make_cb);
}

#[cfg(all(test, unix))]
mod unix_tests {
    fn helper(r: &mut Registry) {
        r.register_callback("host_cb_unix", make_cb);
    }
}

// A test of the registry itself registers a key twice on purpose: that the
// second registration replaces the first (torsh's `base/mod.rs`). Not reported
// unless `registration.check-tests = true`.
#[test]
fn a_parameter_registered_again_replaces_the_first() {
    let mut base = Registry::default();
    base.register_backend("cuda", make_fake_client);
    base.register_backend("cuda", make_fake_client_v2);
    assert_eq!(base.len(), 1);
}

#[cfg(test)]
mod replacement {
    use super::*;

    #[test]
    fn a_second_registration_fails() {
        let mut registry = Registry::default();
        registry.register_backend("tpu", make_fake_client);
        let second = registry.register_backend("tpu", make_fake_client);
        assert!(matches!(second, Ok(_)) || second.is_err());
    }
}
