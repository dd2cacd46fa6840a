//! A backend registry that fails on a name registered twice.

use std::collections::HashMap;

pub struct BackendRegistry {
    backends: HashMap<String, u32>,
}

impl BackendRegistry {
    pub fn new() -> Self {
        BackendRegistry { backends: HashMap::new() }
    }

    pub fn register_backend(&mut self, name: &str, priority: u32) -> Result<(), String> {
        if self.backends.contains_key(name) {
            return Err(format!("Backend {name} already initialized"));
        }
        self.backends.insert(name.to_string(), priority);
        Ok(())
    }
}
