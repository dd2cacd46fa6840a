//! A cache that makes its own key: `create_variable` builds the entry from
//! its second argument, then overwrites the key with a fresh id before the
//! map is asked (probe-rs's `VariableCache`). Two calls with the same
//! arguments add two entries.
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::atomic::{AtomicU32, Ordering};

static NEXT_KEY: AtomicU32 = AtomicU32::new(1);

fn next_key() -> u32 {
    NEXT_KEY.fetch_add(1, Ordering::SeqCst)
}

#[derive(Clone)]
pub struct Variable {
    pub key: u32,
    pub parent: u32,
    pub unit: Option<&'static str>,
}

impl Variable {
    fn new(unit: Option<&'static str>) -> Variable {
        Variable {
            key: 0,
            parent: 0,
            unit,
        }
    }
}

pub struct VariableCache {
    variables: HashMap<u32, Variable>,
}

impl VariableCache {
    pub fn create_variable(
        &mut self,
        parent: u32,
        unit: Option<&'static str>,
    ) -> Result<Variable, String> {
        let mut variable = Variable::new(unit);
        variable.parent = parent;
        variable.key = next_key();
        match self.variables.entry(variable.key) {
            Entry::Occupied(_) => Err(format!("duplicate key {}", variable.key)),
            Entry::Vacant(slot) => Ok(slot.insert(variable).clone()),
        }
    }
}

pub fn children(cache: &mut VariableCache, root: u32) {
    cache.create_variable(root, Some("main")).unwrap();
    cache.create_variable(root, Some("main")).unwrap();
}
