use std::collections::btree_map::{BTreeMap, Entry};
use std::collections::HashMap;

#[derive(Debug)]
pub enum DispatchError {
    AlreadyBound { op: String, device: String },
}

pub type Kernel = fn(&[f32]) -> Vec<f32>;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub struct KernelKey {
    op: usize,
    device: usize,
}

#[derive(Default)]
pub struct KernelTable {
    names: Vec<String>,
    kernels: BTreeMap<KernelKey, Kernel>,
}

impl KernelTable {
    fn intern(&mut self, name: &str) -> usize {
        match self.names.iter().position(|n| n == name) {
            Some(at) => at,
            None => {
                self.names.push(name.to_string());
                self.names.len() - 1
            }
        }
    }

    fn key(&mut self, op: &str, device: &str) -> KernelKey {
        KernelKey {
            op: self.intern(op),
            device: self.intern(device),
        }
    }

    fn insert(&mut self, key: KernelKey, kernel: Kernel) -> Result<(), DispatchError> {
        match self.kernels.entry(key) {
            Entry::Occupied(_) => Err(DispatchError::AlreadyBound {
                op: self.names[key.op].clone(),
                device: self.names[key.device].clone(),
            }),
            Entry::Vacant(slot) => {
                slot.insert(kernel);
                Ok(())
            }
        }
    }
}

#[derive(Default)]
pub struct Dispatcher {
    table: KernelTable,
    counters: HashMap<String, u64>,
}

impl Dispatcher {
    pub fn bind(&mut self, op: &str, device: &str, kernel: Kernel) -> Result<&mut Self, DispatchError> {
        let key = self.table.key(op, device);
        self.table.insert(key, kernel)?;
        Ok(self)
    }

    /// The latest value wins: a counter is a map entry.
    pub fn record(&mut self, name: &str, value: u64) {
        let key = name.to_string();
        self.counters.insert(key, value);
    }
}
