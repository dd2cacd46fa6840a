use std::collections::HashMap;

#[derive(Debug)]
pub struct Duplicate(pub String);

#[derive(Default)]
pub struct Catalog {
    services: HashMap<String, u16>,
}

impl Catalog {
    pub fn insert(&mut self, name: &str, port: u16) -> Result<(), Duplicate> {
        if self.services.contains_key(name) {
            return Err(Duplicate(name.to_string()));
        }
        self.services.insert(name.to_string(), port);
        Ok(())
    }
}
