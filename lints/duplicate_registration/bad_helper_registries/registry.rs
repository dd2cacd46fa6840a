//! A backend registry that fails on a name registered twice.

use std::collections::HashMap;

pub struct BackendRegistry {
    backends: HashMap<String, u32>,
    devices: HashMap<String, ()>,
}

impl BackendRegistry {
    pub fn new() -> Self {
        BackendRegistry {
            backends: HashMap::new(),
            devices: HashMap::new(),
        }
    }

    pub fn register_backend(&mut self, name: &str, priority: u32) -> Result<(), String> {
        if self.backends.contains_key(name) {
            return Err(format!("Backend {name} already initialized"));
        }
        self.backends.insert(name.to_string(), priority);
        Ok(())
    }

    /// A device of a name already defined fails.
    fn define_device(&mut self, name: &str) -> Result<(), String> {
        if self.devices.contains_key(name) {
            return Err(format!("device {name} already defined"));
        }
        self.devices.insert(name.to_string(), ());
        Ok(())
    }

    pub fn add_device(&mut self, name: &str) -> Result<(), String> {
        self.define_device(name)
    }
}
