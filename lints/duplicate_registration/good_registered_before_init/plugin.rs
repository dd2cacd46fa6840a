use crate::bridge::{AlreadyInitialized, Backend, BackendRegistry, KernelTable};

struct Cpu;
struct Cuda;

impl Backend for Cpu {
    fn platform(&self) -> &str {
        "cpu"
    }
}

impl Backend for Cuda {
    fn platform(&self) -> &str {
        "cuda"
    }
}

fn cpu() -> Box<dyn Backend> {
    Box::new(Cpu)
}

fn cuda() -> Box<dyn Backend> {
    Box::new(Cuda)
}

fn noop() {}

/// Every factory before the initialization.
pub fn start(registry: &mut BackendRegistry) -> Result<(), AlreadyInitialized> {
    registry.register_factory("cpu", cpu)?;
    registry.register_factory("cuda", cuda)?;
    registry.init_backends();
    Ok(())
}

/// Another registry is initialized, not the one registered on.
pub fn two_registries(
    left: &mut BackendRegistry,
    right: &mut BackendRegistry,
) -> Result<(), AlreadyInitialized> {
    left.init_backends();
    right.register_factory("cuda", cuda)?;
    Ok(())
}

/// Exclusive branches: initialized in one, registered in the other.
pub fn either(registry: &mut BackendRegistry, eager: bool) -> Result<(), AlreadyInitialized> {
    if eager {
        registry.init_backends();
    } else {
        registry.register_factory("cuda", cuda)?;
    }
    Ok(())
}

/// A table whose late registration is only logged.
pub fn kernels(table: &mut KernelTable) {
    table.warm_up();
    table.register_kernel("noop", noop);
}

/// A test asserting that the late registration is refused.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn late_registration_is_refused() {
        let mut registry = BackendRegistry::default();
        registry.init_backends();
        assert!(registry.register_factory("cuda", cuda).is_err());
    }
}
