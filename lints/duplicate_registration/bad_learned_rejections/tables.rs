use std::collections::{HashMap, HashSet};

pub type Kernel = fn(&[f32]) -> Vec<f32>;

#[derive(Debug)]
pub struct Duplicate(pub String);

/// Operators by name; the set of names is what makes a name unique.
#[derive(Default)]
pub struct OpTable {
    names: HashSet<String>,
    kernels: Vec<(String, Kernel)>,
}

impl OpTable {
    pub fn add_op(&mut self, name: &str, kernel: Kernel) -> Result<(), Duplicate> {
        if !self.names.insert(name.to_string()) {
            return Err(Duplicate(format!("operator `{name}` is defined twice")));
        }
        self.kernels.push((name.to_string(), kernel));
        Ok(())
    }
}

/// Attributes checked against the set first, then added to it.
#[derive(Default)]
pub struct AttrTable {
    declared: HashSet<String>,
}

impl AttrTable {
    pub fn declare_attr(&mut self, name: String) -> Result<(), Duplicate> {
        if self.declared.contains(&name) {
            return Err(Duplicate(name));
        }
        self.declared.insert(name);
        Ok(())
    }
}

#[derive(Default)]
pub struct PassManager {
    passes: HashMap<String, fn()>,
}

impl PassManager {
    pub fn add_pass(&mut self, name: &str, pass: fn()) -> Result<(), Duplicate> {
        if self.passes.get(name).is_some() {
            return Err(Duplicate(format!("pass `{name}` exists")));
        }
        self.passes.insert(name.to_string(), pass);
        Ok(())
    }
}

#[derive(Default)]
pub struct Dialects {
    by_name: HashMap<&'static str, u32>,
}

impl Dialects {
    pub fn load_dialect(&mut self, name: &'static str, version: u32) -> Result<(), Duplicate> {
        if self.by_name.get(name).is_none() {
            self.by_name.insert(name, version);
            Ok(())
        } else {
            Err(Duplicate(name.to_string()))
        }
    }
}

#[derive(Default)]
pub struct KernelTable {
    kernels: HashMap<&'static str, Kernel>,
}

impl KernelTable {
    pub fn add_kernel(&mut self, name: &'static str, kernel: Kernel) {
        if self.kernels.insert(name, kernel).is_some() {
            panic!("kernel `{name}` already registered");
        }
    }
}
