//! The bench API defines its start and end hooks on a component instance.
use crate::linker::{Linker, TypeScope};
use crate::names::DefinedTwice;

fn start(_: &[u64]) -> u64 {
    0
}

fn end(_: &[u64]) -> u64 {
    1
}

pub fn define_hooks(component_linker: &mut Linker) -> Result<(), DefinedTwice> {
    let mut bench_instance = component_linker.instance("bench")?;
    bench_instance.func_wrap("start", start)?;
    bench_instance.func_wrap("end", end)?;
    bench_instance.func_wrap("end", end)?; //~ duplicate_registration
    Ok(())
}

pub fn define_types(scope: &mut TypeScope) -> Result<(), DefinedTwice> {
    scope.define_type("u8", 1)?;
    scope.define_type("u16", 2)?;
    scope.define_type("u8", 1)?; //~ duplicate_registration
    scope.prelude_type("bool", 1)?;
    scope.prelude_type("bool", 1)?;
    Ok(())
}
