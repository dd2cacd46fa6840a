use std::collections::HashMap;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Kind {
    String,
    Array,
    Map,
}

pub type Scalar = fn(usize) -> usize;

#[derive(Debug)]
pub enum PlanError {
    Redefined(String, Kind),
}

#[derive(Default)]
pub struct FunctionRegistry {
    scalars: HashMap<(String, Kind), Scalar>,
}

impl FunctionRegistry {
    pub fn register_typed(&mut self, name: &str, kind: Kind, f: Scalar) -> Result<(), PlanError> {
        let key = (name.to_string(), kind);
        if self.scalars.contains_key(&key) {
            return Err(PlanError::Redefined(name.to_string(), kind));
        }
        self.scalars.insert(key, f);
        Ok(())
    }
}
