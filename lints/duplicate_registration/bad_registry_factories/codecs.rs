use std::collections::hash_map::{Entry, HashMap};

#[derive(Default)]
pub struct Codecs {
    map: HashMap<String, u32>,
    replace: bool,
}

impl Codecs {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn allow_replace(&mut self, on: bool) {
        self.replace = on;
    }

    pub fn install(&mut self, name: &str, id: u32) -> Result<(), String> {
        match self.map.entry(name.to_string()) {
            Entry::Occupied(mut e) if self.replace => {
                e.insert(id);
                Ok(())
            }
            Entry::Occupied(_) => Err(format!("codec {name} is already installed")),
            Entry::Vacant(v) => {
                v.insert(id);
                Ok(())
            }
        }
    }
}
