use crate::table::{KernelTable, Taken};

fn gelu_fast(x: &[f32]) -> f32 {
    x[0] * 0.5
}

fn bias_add(x: &[f32]) -> f32 {
    x[0] + x[1]
}

// A faster `gelu` under the same name: the table already holds one.
pub fn register_fused_kernels(table: &mut KernelTable) -> Result<(), Taken> {
    table.register("bias_add", bias_add)?;
    table.register("gelu", gelu_fast)?;
    Ok(())
}
