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

    /// Replacing a definition becomes allowed.
    pub fn allow_shadowing(&mut self, allow: bool) -> &mut Self {
        self.allow_shadowing = allow;
        self
    }

    fn import_key(&self, module: &str, name: &str) -> ImportKey {
        ImportKey { module: module.to_string(), name: name.to_string() }
    }

    fn insert(&mut self, key: ImportKey, item: HostFunc) -> Result<(), DefinitionError> {
        if !self.allow_shadowing && self.map.contains_key(&key) {
            return Err(DefinitionError(format!("import of `{}::{}` defined twice", key.module, key.name)));
        }
        self.map.insert(key, item);
        Ok(())
    }

    pub fn func_wrap(&mut self, module: &str, name: &str, f: HostFunc) -> Result<&mut Self, DefinitionError> {
        let key = self.import_key(module, name);
        self.insert(key, f)?;
        Ok(self)
    }

    /// A setter: replacing is its job, so it is no registration.
    pub fn set_fuel_hook(&mut self, name: &str, f: HostFunc) {
        self.map.insert(self.import_key("fuel", name), f);
    }
}

impl Linker {
    /// A wrapper whose key goes through `?` (`self.import_key(..)?`).
    pub fn func_new(&mut self, module: &str, name: &str, f: HostFunc) -> Result<(), DefinitionError> {
        let key = self.checked_key(module, name)?;
        self.insert(key, f)
    }

    fn checked_key(&self, module: &str, name: &str) -> Result<ImportKey, DefinitionError> {
        Ok(self.import_key(module, name))
    }
}
