use std::collections::HashMap;

pub type Native = fn(&[f64]) -> f64;

#[derive(Debug)]
pub struct Taken(pub String);

#[derive(Default)]
pub struct Engine {
    natives: HashMap<String, Native>,
}

impl Engine {
    /// Adds the function `name`; a name is taken once.
    pub fn register_1_arg<A: 'static>(&mut self, name: &str, call: Native) -> Result<(), Taken> {
        if self.natives.contains_key(name) {
            return Err(Taken(name.to_string()));
        }
        self.natives.insert(name.to_string(), call);
        Ok(())
    }
}
