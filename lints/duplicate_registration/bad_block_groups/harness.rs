use std::collections::HashMap;

#[derive(Default)]
pub struct Runner {
    groups: Vec<Group>,
}

#[derive(Default)]
pub struct Group {
    cases: HashMap<String, fn()>,
}

#[derive(Debug)]
pub struct Clash(pub String);

impl Runner {
    pub fn new_group(&mut self) -> Group {
        Group::default()
    }

    pub fn finish(&mut self, group: Group) {
        self.groups.push(group);
    }
}

impl Group {
    pub fn register_case(&mut self, name: &str, case: fn()) -> Result<(), Clash> {
        if self.cases.contains_key(name) {
            return Err(Clash(name.to_string()));
        }
        self.cases.insert(name.to_string(), case);
        Ok(())
    }
}
