use crate::linker::{DefinitionError, Linker};

fn fd_write(_: &[u64]) -> u64 { 0 }
fn fd_write_v2(_: &[u64]) -> u64 { 0 }
fn proc_exit(_: &[u64]) -> u64 { 0 }

pub fn add_wasi_to_linker(linker: &mut Linker) -> Result<(), DefinitionError> {
    linker.func_wrap("wasi_snapshot_preview1", "fd_write", fd_write)?;
    linker.func_wrap("wasi_snapshot_preview1", "proc_exit", proc_exit)?;
    // Same name in another module: another import.
    linker.func_wrap("wasi_unstable", "fd_write", fd_write)?;
    linker.func_wrap("wasi_snapshot_preview1", "fd_write", fd_write_v2)?; //~ duplicate_registration
    Ok(())
}

pub fn fuel(linker: &mut Linker) {
    linker.set_fuel_hook("tick", fd_write);
    linker.set_fuel_hook("tick", fd_write_v2);
}

pub fn add_env(linker: &mut Linker) -> Result<(), DefinitionError> {
    linker.func_new("env", "abort", proc_exit)?;
    linker.func_new("env", "abort", proc_exit)?; //~ duplicate_registration
    Ok(())
}
