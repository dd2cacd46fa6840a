use crate::linker::{DefinitionError, Linker};

fn fd_write(_: &[u64]) -> u64 { 0 }
fn fd_write_v2(_: &[u64]) -> u64 { 0 }
fn proc_exit(_: &[u64]) -> u64 { 0 }

pub fn add_wasi_to_linker(linker: &mut Linker) -> Result<(), DefinitionError> {
    linker.func_wrap("wasi_snapshot_preview1", "fd_write", fd_write)?;
    linker.func_wrap("wasi_snapshot_preview1", "proc_exit", proc_exit)?;
    // Same name in another module: another import.
    linker.func_wrap("wasi_unstable", "fd_write", fd_write)?;
    Ok(())
}

/// Shadowing allowed on purpose: the second definition replaces the first.
pub fn wasi_with_override() -> Result<Linker, DefinitionError> {
    let mut linker = Linker::new();
    linker.func_wrap("wasi_snapshot_preview1", "fd_write", fd_write)?;
    linker.allow_shadowing(true);
    linker.func_wrap("wasi_snapshot_preview1", "fd_write", fd_write_v2)?;
    Ok(linker)
}

/// Two linkers: one import each.
pub fn two_linkers(a: &mut Linker, b: &mut Linker) -> Result<(), DefinitionError> {
    a.func_wrap("env", "abort", proc_exit)?;
    b.func_wrap("env", "abort", proc_exit)?;
    Ok(())
}

pub fn fuel(linker: &mut Linker) {
    linker.set_fuel_hook("tick", fd_write);
    linker.set_fuel_hook("tick", fd_write_v2);
}
