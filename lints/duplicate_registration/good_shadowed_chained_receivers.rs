//! Two linkers, each made by its own `let` under one name: an instance
//! reached from each (`linker.instance("foo")?`) is that linker's, so
//! defining `a` in both defines nothing twice. (Through the same linker it
//! would: `bad_inferred_linker`.)

use std::collections::HashMap;

pub struct Linker {
    map: HashMap<String, u32>,
}

pub struct Instance<'a> {
    map: &'a mut HashMap<String, u32>,
}

impl Linker {
    pub fn new() -> Self {
        Linker { map: HashMap::new() }
    }

    pub fn instance(&mut self, _name: &str) -> Result<Instance<'_>, String> {
        Ok(Instance { map: &mut self.map })
    }
}

impl Instance<'_> {
    pub fn func_wrap(&mut self, name: &str, f: u32) -> Result<(), String> {
        if self.map.contains_key(name) {
            return Err(format!("{name} is defined already"));
        }
        self.map.insert(name.to_string(), f);
        Ok(())
    }
}

pub fn static_and_dynamic() -> Result<(), String> {
    let mut linker = Linker::new();
    linker.instance("test:test/foo")?.func_wrap("a", 1)?;
    let mut linker = Linker::new();
    linker.instance("test:test/foo")?.func_wrap("a", 2)?;
    Ok(())
}
