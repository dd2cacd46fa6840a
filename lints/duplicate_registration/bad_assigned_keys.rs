//! A host that builds a plugin from its label, then keys it by the name
//! it was given (`plugin.key = name.to_string()`): the name is the key.
use std::collections::HashMap;
use std::collections::hash_map::Entry;

pub struct Plugin {
    pub key: String,
    pub label: String,
}

impl Plugin {
    fn new(label: &str) -> Plugin {
        Plugin {
            key: String::new(),
            label: label.to_string(),
        }
    }
}

pub struct Host {
    plugins: HashMap<String, Plugin>,
}

impl Host {
    pub fn add_plugin(&mut self, name: &str, label: &str) -> Result<(), String> {
        let mut plugin = Plugin::new(label);
        plugin.key = name.to_string();
        match self.plugins.entry(plugin.key.clone()) {
            Entry::Occupied(_) => Err(format!("plugin {} added twice", plugin.key)),
            Entry::Vacant(slot) => {
                slot.insert(plugin);
                Ok(())
            }
        }
    }
}

pub fn load(host: &mut Host) -> Result<(), String> {
    host.add_plugin("cuda", "NVIDIA CUDA")?;
    host.add_plugin("cuda", "CUDA (fallback)")?; //~ duplicate_registration
    Ok(())
}
