//! Outside the checkout of the workspace that uses it: backend-lint must
//! never read it. It rejects a second hook of one name.
use std::collections::HashMap;

#[derive(Default)]
pub struct Hooks {
    hooks: HashMap<String, fn()>,
}

impl Hooks {
    pub fn install(&mut self, name: &str, hook: fn()) -> Result<(), String> {
        if self.hooks.contains_key(name) {
            return Err(format!("hook {name} already installed"));
        }
        self.hooks.insert(name.to_string(), hook);
        Ok(())
    }
}
