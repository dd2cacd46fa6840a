//! A handler table whose `register` replaces the handler of an id by
//! design: a default registered first, then a better one over it when
//! there is one. The later registration is an override, not a mistake.
//! The same shape on a table that refuses a second id is still reported
//! (`bad_conditional_override`).

use std::collections::HashMap;

pub type Handler = Box<dyn Fn(&[f32]) -> Vec<f32> + Send + Sync>;

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

pub fn scale_ops(fused: Option<Handler>) -> OpTable {
    let mut ops = OpTable::default();
    ops.register("scale", Box::new(|x| x.iter().map(|v| v * 2.0).collect()));
    if let Some(fused) = fused {
        ops.register("scale", fused);
    }
    ops
}

pub fn activation_ops(fast_math: bool) -> OpTable {
    let mut ops = OpTable::default();
    ops.register("gelu", Box::new(|x| x.to_vec()));
    if fast_math {
        ops.register("gelu", Box::new(|x| x.iter().map(|v| v.tanh()).collect()));
    }
    ops
}
