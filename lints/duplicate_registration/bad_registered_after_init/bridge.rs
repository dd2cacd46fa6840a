use std::collections::HashMap;

pub type Factory = fn() -> Box<dyn Backend>;

pub trait Backend {
    fn platform(&self) -> &str;
}

#[derive(Debug)]
pub struct AlreadyInitialized(pub String);

#[derive(Default)]
pub struct BackendRegistry {
    factories: HashMap<String, Factory>,
    backends: HashMap<String, Box<dyn Backend>>,
    initialized: bool,
}

impl BackendRegistry {
    pub fn register_factory(&mut self, name: &str, factory: Factory) -> Result<(), AlreadyInitialized> {
        if self.initialized {
            return Err(AlreadyInitialized(format!("Backend {name} already initialized")));
        }
        self.factories.insert(name.to_string(), factory);
        Ok(())
    }

    pub fn init_backends(&mut self) {
        for (name, factory) in &self.factories {
            self.backends.insert(name.clone(), factory());
        }
        self.initialized = true;
    }

    pub fn backend(&self, name: &str) -> Option<&dyn Backend> {
        self.backends.get(name).map(|b| &**b)
    }
}
