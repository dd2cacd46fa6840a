//! `duplicate_registration` with `registration.check-tests = true`: test code
//! is compared within one test function only, and two registrations of one
//! key in the same test function collide. Test code is never compared with
//! production code, so each test case below only collides with itself.

pub fn init(registry: &mut Registry) {
    registry.register_backend("cuda", make_cuda_client);
}

// A `#[test]` outside any test module.
#[test]
fn cuda_backend_is_replaced() {
    let mut registry = Registry::default();
    registry.register_backend("cuda", make_fake_client);
    registry.register_backend("cuda", make_fake_client); //~ duplicate_registration
}

#[cfg(test)]
mod tests {
    use super::*;

    // An async test: `#[tokio::test]`.
    #[tokio::test]
    async fn rocm_backend_is_replaced() {
        let mut registry = Registry::default();
        registry.register_backend("rocm", make_fake_client);
        registry.register_backend("ROCM", make_fake_client); //~ duplicate_registration
    }

    // A registration in a closure of the test function is code of that test.
    // (The `install` closure registers on `r`, another receiver.)
    #[test]
    fn tpu_backend_is_replaced_by_a_helper() {
        let mut registry = Registry::default();
        registry.register_backend("tpu", make_fake_client);
        let mut install = |r: &mut Registry| r.register_backend("tpu", make_fake_client);
        install(&mut registry);
        let mut again = || registry.register_backend("tpu", make_fake_client); //~ duplicate_registration
        again();
    }

    // A helper function of a nested module of the test module: test code, one
    // scope, with a duplicate inside.
    mod helpers {
        pub fn registry_with_cuda() -> Registry {
            let mut registry = Registry::default();
            registry.register_backend("cuda", make_fake_client);
            registry.register_backend("cuda", make_fake_client_v2); //~ duplicate_registration
            registry
        }
    }

    // A method of an `impl` in the test module is one scope as well.
    impl Harness {
        fn with_metal(mut self) -> Self {
            self.registry.register_platform("metal", MetalPlatform::fake());
            self.registry.register_platform("metal", MetalPlatform::fake()); //~ duplicate_registration
            self
        }
    }
}
