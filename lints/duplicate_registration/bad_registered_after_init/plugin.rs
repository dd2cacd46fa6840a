use crate::bridge::{AlreadyInitialized, Backend, BackendRegistry};

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

pub fn start(registry: &mut BackendRegistry) -> Result<(), AlreadyInitialized> {
    registry.register_factory("cpu", cpu)?;
    registry.init_backends();
    registry.register_factory("cuda", cuda)?; //~ duplicate_registration
    Ok(())
}

pub fn start_plugin() -> Result<BackendRegistry, AlreadyInitialized> {
    let mut registry = BackendRegistry::default();
    registry.init_backends();
    if std::env::var_os("WITH_CUDA").is_some() {
        registry.register_factory("cuda", cuda)?; //~ duplicate_registration
    }
    Ok(registry)
}
