use std::collections::HashMap;

#[derive(Debug)]
pub struct DefinedTwice(pub String);

#[derive(Default)]
pub struct Strings {
    atoms: Vec<String>,
}

impl Strings {
    pub fn intern(&mut self, name: &str) -> usize {
        if let Some(at) = self.atoms.iter().position(|a| a == name) {
            return at;
        }
        self.atoms.push(name.to_string());
        self.atoms.len() - 1
    }
}

pub struct NameMap<V> {
    definitions: HashMap<usize, V>,
}

impl<V> Default for NameMap<V> {
    fn default() -> Self {
        NameMap { definitions: HashMap::new() }
    }
}

impl<V> NameMap<V> {
    pub fn raw_get(&self, key: usize) -> Option<&V> {
        self.definitions.get(&key)
    }

    /// Defines `name`; a second definition fails unless `allow_shadowing`.
    pub fn insert(
        &mut self,
        name: &str,
        cx: &mut Strings,
        allow_shadowing: bool,
        item: V,
    ) -> Result<usize, DefinedTwice> {
        let key = cx.intern(name);
        if !allow_shadowing && self.definitions.contains_key(&key) {
            return Err(DefinedTwice(format!("map entry `{name}` defined twice")));
        }
        self.definitions.insert(key, item);
        Ok(key)
    }
}
