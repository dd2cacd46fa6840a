use crate::tables::{unique, AttrTable, Dialects, Duplicate, Hooks, KernelTable, OpTable, PassManager};

fn relu(x: &[f32]) -> Vec<f32> {
    x.iter().map(|v| v.max(0.0)).collect()
}

fn fuse() {}

pub fn build() -> Result<(), Duplicate> {
    let mut ops = OpTable::default();
    ops.add_op("relu", relu)?;
    ops.add_op("gelu", relu)?;
    let mut attrs = AttrTable::default();
    attrs.declare_attr("axis".to_string())?;
    attrs.declare_attr("keepdims".to_string())?;
    let mut pm = PassManager::default();
    pm.add_pass("fuse", fuse)?;
    let mut d = Dialects::default();
    d.load_dialect("arith", 1)?;
    d.load_dialect("scf", 1)?;
    let mut k = KernelTable::default();
    k.add_kernel("matmul", relu);
    k.add_kernel("conv", relu);
    let mut hooks = Hooks::default();
    hooks.set_hook("exit", fuse);
    hooks.set_hook("exit", fuse);
    hooks.enter("main")?;
    hooks.enter("main")?;
    hooks.note("x");
    hooks.note("x");
    hooks.require("exit")?;
    hooks.require("exit")?;
    unique(&["a", "b"])?;
    unique(&["a", "b"])
}
