use std::collections::HashMap;

#[derive(Clone, Copy)]
pub enum Usage {
    Assigned = 1,
    Used = 2,
    Captured = 4,
}

#[derive(Default)]
pub struct Scope {
    symbols: HashMap<String, u8>,
}

impl Scope {
    pub fn register_name(&mut self, name: &str, usage: Usage) {
        let flags = self.symbols.entry(name.to_string()).or_insert(0);
        *flags |= usage as u8;
    }

    pub fn is_captured(&self, name: &str) -> bool {
        self.symbols
            .get(name)
            .is_some_and(|f| f & Usage::Captured as u8 != 0)
    }
}
