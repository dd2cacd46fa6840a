use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, OnceLock};

pub type Factory = fn() -> u32;

#[derive(Default)]
pub struct Table {
    factories: HashMap<String, Factory>,
}

impl Table {
    pub fn register(&mut self, name: &str, f: Factory) -> Result<(), String> {
        if self.factories.contains_key(name) {
            return Err(format!("`{name}` is already loaded"));
        }
        self.factories.insert(name.to_string(), f);
        Ok(())
    }
}

/// The host plugins.
pub fn registry() -> MutexGuard<'static, Table> {
    static TABLE: OnceLock<Mutex<Table>> = OnceLock::new();
    TABLE.get_or_init(Default::default).lock().unwrap()
}

fn cpu() -> u32 {
    0
}

pub fn load() -> Result<(), String> {
    registry().register("cuda", cpu)
}
