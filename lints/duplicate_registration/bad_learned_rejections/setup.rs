use crate::tables::{AttrTable, Dialects, Duplicate, Kernel, KernelTable, OpTable, PassManager};

fn relu(x: &[f32]) -> Vec<f32> {
    x.iter().map(|v| v.max(0.0)).collect()
}

fn gelu(x: &[f32]) -> Vec<f32> {
    x.to_vec()
}

fn fuse() {}
fn fold() {}

pub fn ops(table: &mut OpTable) -> Result<(), Duplicate> {
    table.add_op("relu", relu)?;
    table.add_op("gelu", gelu)?;
    table.add_op("relu", gelu)?; //~ duplicate_registration
    Ok(())
}

pub fn attrs(attrs: &mut AttrTable) -> Result<(), Duplicate> {
    attrs.declare_attr("axis".to_string())?;
    attrs.declare_attr("axis".to_string())?; //~ duplicate_registration
    Ok(())
}

pub fn passes(pm: &mut PassManager) -> Result<(), Duplicate> {
    pm.add_pass("fuse", fuse)?;
    pm.add_pass("fold", fold)?;
    pm.add_pass("fuse", fold)?; //~ duplicate_registration
    Ok(())
}

pub fn dialects(d: &mut Dialects) -> Result<(), Duplicate> {
    d.load_dialect("arith", 1)?;
    d.load_dialect("arith", 1)?; //~ duplicate_registration
    Ok(())
}

pub fn kernels(t: &mut KernelTable) {
    let k: Kernel = relu;
    t.add_kernel("matmul", k);
    t.add_kernel("matmul", gelu); //~ duplicate_registration
}
