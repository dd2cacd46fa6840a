use std::collections::HashMap;

#[derive(Debug, PartialEq)]
pub enum HostError {
    EmptyName,
}

#[derive(Default)]
pub struct PluginHost {
    plugins: HashMap<String, u32>,
}

impl PluginHost {
    /// Whether `name` was new; a known plugin keeps its first version.
    pub fn register_plugin(&mut self, name: &str, version: u32) -> Result<bool, HostError> {
        if name.is_empty() {
            return Err(HostError::EmptyName);
        }
        if self.plugins.contains_key(name) {
            return Ok(false);
        }
        self.plugins.insert(name.to_string(), version);
        Ok(true)
    }
}
