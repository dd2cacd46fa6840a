use std::collections::HashMap;

pub type Kernel = fn(&[f32]) -> f32;

#[derive(Debug)]
pub struct Taken(pub String);

#[derive(Default)]
pub struct KernelTable {
    kernels: HashMap<String, Kernel>,
}

impl KernelTable {
    /// A kernel name is taken once.
    pub fn register(&mut self, name: &str, kernel: Kernel) -> Result<(), Taken> {
        if self.kernels.contains_key(name) {
            return Err(Taken(name.to_string()));
        }
        self.kernels.insert(name.to_string(), kernel);
        Ok(())
    }
}
