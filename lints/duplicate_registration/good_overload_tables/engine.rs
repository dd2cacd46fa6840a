use std::any::TypeId;
use std::collections::HashMap;

pub type Native = fn(&[f64]) -> f64;

pub struct Overload {
    pub arg: TypeId,
    pub call: Native,
}

#[derive(Debug)]
pub struct Clash(pub String);

#[derive(Default)]
pub struct Engine {
    natives: HashMap<String, Vec<Overload>>,
    exact: HashMap<(String, TypeId), Native>,
}

impl Engine {
    /// Adds an overload of `name`; a call chooses among them by type.
    pub fn register_1_arg<A: 'static>(&mut self, name: &str, call: Native) -> &mut Self {
        let overload = Overload {
            arg: TypeId::of::<A>(),
            call,
        };
        self.natives
            .entry(name.to_string())
            .or_default()
            .push(overload);
        self
    }

    /// One function per name and argument type: the same pair twice fails.
    pub fn register_exact<A: 'static>(&mut self, name: &str, call: Native) -> Result<(), Clash> {
        let key = (name.to_string(), TypeId::of::<A>());
        if self.exact.contains_key(&key) {
            return Err(Clash(name.to_string()));
        }
        self.exact.insert(key, call);
        Ok(())
    }

    pub fn overloads(&self, name: &str) -> usize {
        self.natives.get(name).map_or(0, Vec::len)
    }
}
