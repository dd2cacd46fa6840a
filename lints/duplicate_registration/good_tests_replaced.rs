//! Tests that register a key twice on purpose: the second result ignored
//! (the test of replacement), or asserted to fail.

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_later_client_replaces_the_first() {
        let mut registry = Registry::default();
        registry.register_backend("cuda", make_cuda_client).unwrap();
        let _ = registry.register_backend("cuda", make_cuda_client_async);
        assert!(registry.get("cuda").is_some());
    }

    #[test]
    fn a_second_client_is_refused() {
        let mut registry = Registry::default();
        registry.register_backend("cuda", make_cuda_client).unwrap();
        assert!(registry.register_backend("cuda", make_cuda_client).is_err());
    }

    #[test]
    fn a_second_client_is_refused_by_unwrap_err() {
        let mut registry = Registry::default();
        registry.register_backend("rocm", make_rocm_client).unwrap();
        registry.register_backend("rocm", make_rocm_client).unwrap_err();
    }

    // Each test its own registry: one key each, asserted.
    #[test]
    fn cuda_alone() {
        let mut registry = Registry::default();
        registry.register_backend("cuda", make_cuda_client).unwrap();
    }

    #[test]
    fn cuda_again_alone() {
        let mut registry = Registry::default();
        registry.register_backend("cuda", make_cuda_client).unwrap();
    }
}
