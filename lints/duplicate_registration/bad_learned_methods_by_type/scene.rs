use std::collections::HashMap;

#[derive(Debug)]
pub struct NameTaken(pub String);

#[derive(Default)]
pub struct Scene {
    nodes: HashMap<String, u32>,
}

impl Scene {
    pub fn add_node(&mut self, name: &str) -> Result<u32, NameTaken> {
        if self.nodes.contains_key(name) {
            return Err(NameTaken(name.to_string()));
        }
        let id = self.nodes.len() as u32;
        self.nodes.insert(name.to_string(), id);
        Ok(id)
    }
}
