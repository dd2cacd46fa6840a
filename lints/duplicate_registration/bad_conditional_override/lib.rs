//! A default then an override of the same id, unconditionally or on a
//! table that refuses a second id: the first registration is dead code,
//! or the second one fails.

use std::collections::HashMap;

pub type Handler = fn(&[f32]) -> Vec<f32>;

#[derive(Debug)]
pub struct Duplicate(pub String);

#[derive(Default)]
pub struct OpTable {
    handlers: HashMap<String, Handler>,
}

impl OpTable {
    /// Registers `handler` for `id`, replacing the one registered before.
    pub fn register(&mut self, id: &str, handler: Handler) {
        self.handlers.insert(id.to_string(), handler);
    }
}

#[derive(Default)]
pub struct KernelTable {
    kernels: HashMap<String, Handler>,
}

impl KernelTable {
    /// Refuses an id registered before.
    pub fn register_kernel(&mut self, id: &str, kernel: Handler) -> Result<(), Duplicate> {
        if self.kernels.contains_key(id) {
            return Err(Duplicate(id.to_string()));
        }
        self.kernels.insert(id.to_string(), kernel);
        Ok(())
    }
}

fn double(x: &[f32]) -> Vec<f32> {
    x.iter().map(|v| v * 2.0).collect()
}

fn fused_double(x: &[f32]) -> Vec<f32> {
    x.iter().map(|v| v + v).collect()
}

/// Both run: the first handler is never used.
pub fn scale_ops() -> OpTable {
    let mut ops = OpTable::default();
    ops.register("scale", double);
    ops.register("scale", fused_double); //~ duplicate_registration
    ops
}

/// The override fails on a table that refuses a second id.
pub fn scale_kernels(fused: bool) -> Result<KernelTable, Duplicate> {
    let mut kernels = KernelTable::default();
    kernels.register_kernel("scale", double)?;
    if fused {
        kernels.register_kernel("scale", fused_double)?; //~ duplicate_registration
    }
    Ok(kernels)
}
