use std::collections::hash_map::Entry;
use std::collections::HashMap;

/// A device backend.
pub trait Backend {
    fn name(&self) -> &str;
}

/// Makes a backend's client.
pub type BackendFactory = fn() -> Box<dyn Backend>;

#[derive(Debug)]
pub enum RegistryError {
    AlreadyRegistered(String),
}

/// The backends a process knows, by name.
#[derive(Default)]
pub struct Registry {
    factories: HashMap<String, BackendFactory>,
    priorities: HashMap<String, u32>,
}

impl Registry {
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Registers the factory of the backend `name`. A name is registered
    /// once: a second factory is an error ("backend already registered").
    pub fn register_backend_factory(
        &mut self,
        name: &str,
        factory: BackendFactory,
    ) -> Result<(), RegistryError> {
        if self.factories.contains_key(name) {
            return Err(RegistryError::AlreadyRegistered(name.to_string()));
        }
        self.factories.insert(name.to_string(), factory);
        Ok(())
    }

    /// Makes `name` a platform, tried in order of `priority`; once.
    pub fn add_platform(&mut self, name: &str, priority: u32) -> Result<(), RegistryError> {
        match self.priorities.entry(name.to_string()) {
            Entry::Occupied(_) => Err(RegistryError::AlreadyRegistered(name.to_string())),
            Entry::Vacant(slot) => {
                slot.insert(priority);
                Ok(())
            }
        }
    }

    /// Sets the factory of `name`, replacing any before: by design, for
    /// tests and for plugins that upgrade a backend.
    pub fn set_backend_factory(&mut self, name: &str, factory: BackendFactory) {
        self.factories.insert(name.to_string(), factory);
    }
}
