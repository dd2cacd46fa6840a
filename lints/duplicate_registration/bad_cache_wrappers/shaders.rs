use std::collections::HashMap;

#[derive(Debug)]
pub struct Compiled(pub String);

#[derive(Default)]
pub struct ShaderCache {
    ids: HashMap<String, u32>,
}

impl ShaderCache {
    pub fn add_shader(&mut self, name: &str, source: &str) -> Result<u32, Compiled> {
        if self.ids.contains_key(name) {
            return Err(Compiled(name.to_string()));
        }
        let id = source.len() as u32;
        self.ids.insert(name.to_string(), id);
        Ok(id)
    }

    pub fn load(&mut self, name: &str) -> u32 {
        if let Some(id) = self.ids.get(name) {
            return *id;
        }
        let source = format!("shaders/{name}.wgsl");
        self.add_shader(name, &source).unwrap_or_default()
    }
}
