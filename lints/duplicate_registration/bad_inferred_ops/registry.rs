use std::collections::hash_map::Entry;
use std::collections::HashMap;

pub type OpBuilder = fn(&[f32]) -> Vec<f32>;

#[derive(Default)]
pub struct OpTable {
    ops: HashMap<String, OpBuilder>,
}

impl OpTable {
    pub fn insert_op(&mut self, name: &str, builder: OpBuilder) {
        match self.ops.entry(name.to_string()) {
            Entry::Occupied(_) => panic!("operator `{name}` is already in the table"),
            Entry::Vacant(v) => {
                v.insert(builder);
            }
        }
    }
}

/// Element-wise ops share one builder shape.
pub fn add_unary(table: &mut OpTable, name: &str, builder: OpBuilder) {
    table.insert_op(name, builder);
}
