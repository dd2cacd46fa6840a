//! The host functions the guest modules import, grouped by area, defined
//! with `Linker::func_wrap` as wasmi's README does.

use wasmi::{Caller, Linker};

pub struct HostState {
    pub log: Vec<String>,
    pub ticks: u64,
}

pub fn define_logging(linker: &mut Linker<HostState>) -> Result<(), wasmi::Error> {
    linker.func_wrap(
        "env",
        "log",
        |mut caller: Caller<'_, HostState>, code: i32| {
            caller.data_mut().log.push(format!("guest: {code}"));
        },
    )?;
    Ok(())
}

pub fn define_clock(linker: &mut Linker<HostState>) -> Result<(), wasmi::Error> {
    linker
        .func_wrap("env", "now", |caller: Caller<'_, HostState>| {
            caller.data().ticks as i64
        })?
        .func_wrap(
            "env",
            "sleep",
            |mut caller: Caller<'_, HostState>, t: i64| {
                caller.data_mut().ticks += t as u64;
            },
        )?;
    Ok(())
}

/// The "debug" variant of the host: its `log` prints as well.
pub fn define_debug(linker: &mut Linker<HostState>) -> Result<(), wasmi::Error> {
    linker.func_wrap("env", "log", |code: i32| println!("guest: {code}"))?; // BUG wasmi-1: `env`/`log` is already defined by `define_logging`: `func_wrap` returns Err(DuplicateDefinition) (wasmi-0.40.0/src/linker.rs:891)
    Ok(())
}

/// The same override, allowed: shadowing replaces the earlier definition.
pub fn define_debug_shadowing(linker: &mut Linker<HostState>) -> Result<(), wasmi::Error> {
    linker.allow_shadowing(true);
    linker.func_wrap("env", "log", |code: i32| println!("guest: {code}"))?; // TRAP wasmi-t1: `allow_shadowing(true)` was set just before: the definition is replaced (wasmi-0.40.0/src/linker.rs:883)
    Ok(())
}
