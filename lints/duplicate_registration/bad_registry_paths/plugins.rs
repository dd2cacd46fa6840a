use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, OnceLock};

pub trait DevicePlugin: Send {
    fn platform(&self) -> &'static str;
}

pub type PluginFactory = fn() -> Box<dyn DevicePlugin>;

#[derive(Default)]
pub struct PluginRegistry {
    factories: HashMap<String, PluginFactory>,
}

impl PluginRegistry {
    /// Fails when a plugin of that name is loaded already.
    pub fn register(&mut self, name: &str, factory: PluginFactory) -> Result<(), String> {
        if self.factories.contains_key(name) {
            return Err(format!("plugin `{name}` is already loaded"));
        }
        self.factories.insert(name.to_string(), factory);
        Ok(())
    }
}

/// The process-wide table.
pub fn registry() -> MutexGuard<'static, PluginRegistry> {
    static REGISTRY: OnceLock<Mutex<PluginRegistry>> = OnceLock::new();
    REGISTRY.get_or_init(Default::default).lock().unwrap()
}
