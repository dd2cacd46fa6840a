use std::any::TypeId;
use std::collections::HashMap;

pub type Native = fn(&[f64]) -> f64;

#[derive(Debug)]
pub struct Taken(pub String);

#[derive(Default)]
pub struct Engine {
    natives: HashMap<String, Native>,
    exact: HashMap<(String, TypeId), Native>,
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

    /// One function per name and argument type: the same pair twice fails.
    pub fn register_exact<A: 'static>(&mut self, name: &str, call: Native) -> Result<(), Taken> {
        let key = (name.to_string(), TypeId::of::<A>());
        if self.exact.contains_key(&key) {
            return Err(Taken(name.to_string()));
        }
        self.exact.insert(key, call);
        Ok(())
    }
}
