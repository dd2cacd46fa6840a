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

/// Initializing warms a cache; registering later still works.
#[derive(Default)]
pub struct KernelTable {
    kernels: HashMap<String, fn()>,
    warmed: bool,
}

impl KernelTable {
    pub fn register_kernel(&mut self, name: &str, kernel: fn()) {
        if self.warmed {
            log_late(name);
        }
        self.kernels.insert(name.to_string(), kernel);
    }

    pub fn warm_up(&mut self) {
        self.kernels.values().for_each(|k| k());
        self.warmed = true;
    }
}

fn log_late(name: &str) {
    eprintln!("kernel {name} registered after warm-up");
}
