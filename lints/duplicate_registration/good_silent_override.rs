//! `duplicate_registration`: a registration whose body is read and shows
//! no rejection (it hands the name down to a symbol table that shadows the
//! old slot) replaces; a default registered first and overridden in one
//! arm of a `match` is meant (steel's `register_value("std::env::args")`).

use std::collections::HashMap;
use std::sync::RwLock;

#[derive(Clone, Debug)]
pub enum Value {
    List(Vec<String>),
}

#[derive(Default)]
pub struct SymbolMap {
    map: HashMap<String, usize>,
    len: usize,
}

impl SymbolMap {
    /// A name given again shadows the slot it had.
    pub fn add(&mut self, name: &str) -> usize {
        let idx = self.len;
        self.len += 1;
        self.map.insert(name.to_string(), idx);
        idx
    }
}

#[derive(Default)]
pub struct Compiler {
    symbols: SymbolMap,
}

impl Compiler {
    pub fn intern(&mut self, name: &str) -> usize {
        self.symbols.add(name)
    }
}

#[derive(Default)]
pub struct Engine {
    compiler: RwLock<Compiler>,
    globals: Vec<Option<Value>>,
}

impl Engine {
    pub fn new() -> Engine {
        Engine::default()
    }

    fn register_value_inner(&mut self, name: &str, value: Value) -> &mut Self {
        let idx = self.compiler.write().unwrap().intern(name);
        if self.globals.len() <= idx {
            self.globals.resize(idx + 1, None);
        }
        self.globals[idx] = Some(value);
        self
    }

    pub fn register_value(&mut self, name: &str, value: Value) -> &mut Self {
        self.register_value_inner(name, value)
    }
}

pub fn run(arguments: Option<Vec<String>>) -> Engine {
    let mut vm = Engine::new();
    vm.register_value("std::env::args", Value::List(Vec::new()));
    match arguments {
        None => {}
        Some(arguments) => {
            vm.register_value("std::env::args", Value::List(arguments));
        }
    }
    vm
}
