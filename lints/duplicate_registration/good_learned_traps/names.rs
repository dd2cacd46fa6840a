use std::collections::HashMap;

pub struct Names {
    map: HashMap<String, u32>,
}

impl Names {
    /// An associated function that rejects: called through its type, which
    /// a call's name does not tell, so it is never learned.
    pub fn create(table: &mut HashMap<String, u32>, name: &str) -> Result<(), String> {
        if table.contains_key(name) {
            return Err(format!("{name} exists"));
        }
        table.insert(name.to_string(), 0);
        Ok(())
    }

    /// Checks and fails, but inserts into no map: a lookup, not a registry.
    pub fn require_absent(&self, name: &str) -> Result<(), String> {
        if self.map.contains_key(name) {
            return Err(format!("{name} is taken"));
        }
        Ok(())
    }
}

pub fn check_twice(names: &Names) -> bool {
    names.require_absent("cuda").is_ok() && names.require_absent("cuda").is_ok()
}

pub fn two_tables() {
    let mut a = HashMap::new();
    let mut b = HashMap::new();
    // One key in two tables: `create` is not learned, and the tables differ.
    Names::create(&mut a, "cpu").unwrap();
    Names::create(&mut b, "cpu").unwrap();
}
