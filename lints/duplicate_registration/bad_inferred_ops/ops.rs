use crate::registry::{add_unary, OpTable};

fn relu(x: &[f32]) -> Vec<f32> { x.iter().map(|v| v.max(0.0)).collect() }
fn neg(x: &[f32]) -> Vec<f32> { x.iter().map(|v| -v).collect() }
fn abs(x: &[f32]) -> Vec<f32> { x.iter().map(|v| v.abs()).collect() }

pub fn table() -> OpTable {
    let mut table = OpTable::default();
    add_unary(&mut table, "relu", relu);
    add_unary(&mut table, "neg", neg);
    add_unary(&mut table, "abs", abs);
    add_unary(&mut table, "neg", neg); //~ duplicate_registration
    table
}

pub fn extra(table: &mut OpTable) {
    table.insert_op("sign", neg);
    table.insert_op("sign", abs); //~ duplicate_registration
}
