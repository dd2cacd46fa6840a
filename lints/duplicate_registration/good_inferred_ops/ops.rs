use std::collections::HashMap;

use crate::registry::{add_unary, OpBuilder, OpTable};

fn relu(x: &[f32]) -> Vec<f32> { x.iter().map(|v| v.max(0.0)).collect() }
fn neg(x: &[f32]) -> Vec<f32> { x.iter().map(|v| -v).collect() }
fn abs(x: &[f32]) -> Vec<f32> { x.iter().map(|v| v.abs()).collect() }

/// Each table its own: one `neg` in each.
pub fn tables() -> (OpTable, OpTable) {
    let mut cpu = OpTable::default();
    let mut gpu = OpTable::default();
    add_unary(&mut cpu, "relu", relu);
    add_unary(&mut cpu, "neg", neg);
    add_unary(&mut gpu, "neg", neg);
    (cpu, gpu)
}

/// Exclusive builds: one of the two runs.
pub fn extra(table: &mut OpTable) {
    #[cfg(feature = "fast-math")]
    table.insert_op("sign", neg);
    #[cfg(not(feature = "fast-math"))]
    table.insert_op("sign", abs);
}

/// A plain map replaces by design; its `insert` is no registration.
pub fn overrides() -> HashMap<&'static str, OpBuilder> {
    let mut map: HashMap<&'static str, OpBuilder> = HashMap::new();
    map.insert("neg", neg);
    map.insert("neg", abs);
    map
}
