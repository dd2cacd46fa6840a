use std::any::TypeId;
use std::collections::HashMap;

pub type Native = fn(&[f64]) -> f64;

pub struct Overload {
    pub arg: TypeId,
    pub call: Native,
}

#[derive(Default)]
pub struct Engine {
    natives: HashMap<String, Vec<Overload>>,
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

    pub fn overloads(&self, name: &str) -> usize {
        self.natives.get(name).map_or(0, Vec::len)
    }
}
