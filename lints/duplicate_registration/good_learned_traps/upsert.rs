//! mistral.rs's shape: one method adds under a name with a policy, which
//! may replace; tests add a name twice on purpose with the replacing one.
use std::collections::HashMap;

pub enum Policy {
    Replace,
    Reject,
}

#[derive(Default)]
pub struct Models {
    map: HashMap<String, u32>,
}

impl Models {
    pub fn register_model(&mut self, name: &str, id: u32) -> Result<(), String> {
        self.map.insert(name.to_string(), id);
        Ok(())
    }

    pub fn add(&mut self, name: &str, id: u32, policy: Policy) -> Result<(), String> {
        match policy {
            Policy::Replace => self.register_model(name, id),
            Policy::Reject => {
                if self.map.contains_key(name) {
                    return Err(format!("{name} exists"));
                }
                self.register_model(name, id)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replacing_keeps_the_last() {
        let mut models = Models::default();
        models.add("llama", 1, Policy::Replace).unwrap();
        models.add("llama", 2, Policy::Replace).unwrap();
    }
}
