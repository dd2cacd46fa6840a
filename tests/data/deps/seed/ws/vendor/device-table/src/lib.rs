//! Platform priorities; a later priority replaces an earlier one.
use std::collections::HashMap;

#[derive(Default)]
pub struct Table {
    priorities: HashMap<String, u32>,
}

impl Table {
    /// Sets the priority of `name`, replacing the one before.
    pub fn add_platform(&mut self, name: &str, priority: u32) {
        self.priorities.insert(name.to_string(), priority);
    }
}
