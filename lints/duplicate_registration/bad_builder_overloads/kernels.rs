use crate::table::{Kernel, KernelTable};

fn relu(x: &[f32]) -> f32 {
    x[0].max(0.0)
}

fn neg(x: &[f32]) -> f32 {
    -x[0]
}

/// A helper of the crate's own: every kernel it adds is one more overload.
fn elementwise(table: &mut KernelTable, name: &str, dtype: &'static str, kernel: Kernel) {
    table.register_unary(name, dtype, kernel);
}

pub fn builtins(table: &mut KernelTable) {
    table.register_unary("relu", "f32", relu);
    table.register_unary("relu", "f16", relu); //~ duplicate_registration
    elementwise(table, "neg", "f32", neg);
    elementwise(table, "neg", "bf16", neg); //~ duplicate_registration
}
