//! A stand-in for a Wasm runtime's linker (wasmtime's `Linker::func_wrap`
//! fails on an import defined twice unless shadowing is allowed): a method
//! that hands back `&mut Self` behind a `Result`.

use std::collections::HashMap;

pub type HostFunc = fn(&[u64]) -> u64;

#[derive(Clone, PartialEq, Eq, Hash)]
struct ImportKey {
    module: String,
    name: String,
}

pub struct Linker {
    map: HashMap<ImportKey, HostFunc>,
    allow_shadowing: bool,
}

#[derive(Debug)]
pub struct DefinitionError(String);

impl Linker {
    pub fn new() -> Linker {
        Linker { map: HashMap::new(), allow_shadowing: false }
    }

    pub fn allow_shadowing(&mut self, allow: bool) -> &mut Self {
        self.allow_shadowing = allow;
        self
    }

    pub fn func_wrap(&mut self, module: &str, name: &str, f: HostFunc) -> Result<&mut Self, DefinitionError> {
        let key = ImportKey { module: module.to_string(), name: name.to_string() };
        if !self.allow_shadowing && self.map.contains_key(&key) {
            return Err(DefinitionError(format!("import `{module}::{name}` defined twice")));
        }
        self.map.insert(key, f);
        Ok(self)
    }
}
