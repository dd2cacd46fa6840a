//! A test that registers a key twice and asserts that the second call
//! succeeds: the test passes only while the registry silently replaces.

pub fn init(registry: &mut Registry) -> Result<(), Error> {
    registry.register_backend("cuda", make_cuda_client)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_clients_are_registered() {
        let mut registry = Registry::default();
        registry.register_backend("cuda", make_cuda_client).unwrap();
        registry.register_backend("cuda", make_cuda_client_async).unwrap(); //~ duplicate_registration
    }

    #[test]
    fn registered_with_expect() {
        let mut registry = Registry::default();
        registry.register_backend("rocm", make_rocm_client).expect("first");
        registry.register_backend("rocm", make_rocm_client).expect("second"); //~ duplicate_registration
    }

    #[test]
    fn registered_with_try() -> Result<(), Error> {
        let mut registry = Registry::default();
        registry.register_backend("tpu", make_tpu_client)?;
        registry.register_backend("tpu", make_tpu_client)?; //~ duplicate_registration
        Ok(())
    }

    #[test]
    fn registered_with_assert() {
        let mut registry = Registry::default();
        assert!(registry.register_backend("metal", make_metal_client).is_ok());
        assert!(registry.register_backend("metal", make_metal_client).is_ok()); //~ duplicate_registration
    }
}
