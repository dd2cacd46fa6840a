use crate::linker::{Linker, TypeScope};
use crate::names::DefinedTwice;

fn start(_: &[u64]) -> u64 {
    0
}

fn end(_: &[u64]) -> u64 {
    1
}

/// The second `end` replaces the first: shadowing is allowed.
pub fn redefine(linker: &mut Linker) -> Result<(), DefinedTwice> {
    linker.allow_shadowing(true);
    let mut bench = linker.instance("bench")?;
    bench.func_wrap("end", start)?;
    bench.func_wrap("end", end)?;
    linker.root().func_wrap("exit", start)?;
    linker.root().func_wrap("exit", end)?;
    Ok(())
}

pub fn once_each(linker: &mut Linker, scope: &mut TypeScope) -> Result<(), DefinedTwice> {
    let mut hooks = linker.instance("bench")?;
    hooks.func_wrap("start", start)?;
    hooks.func_wrap("end", end)?;
    scope.define_type("u8", 1)?;
    scope.define_type("u16", 2)?;
    scope.prelude_type("bool", 1)?;
    scope.prelude_type("bool", 1)?;
    linker.open_instance("wasi:cli/env")?;
    linker.open_instance("wasi:cli/env")?;
    Ok(())
}
