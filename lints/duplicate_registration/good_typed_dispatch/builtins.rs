use crate::functions::{FunctionRegistry, Kind, PlanError};

fn length(n: usize) -> usize {
    n
}

pub fn install(registry: &mut FunctionRegistry) -> Result<(), PlanError> {
    registry.register_typed("len", Kind::String, length)?;
    registry.register_typed("len", Kind::Array, length)?;
    registry.register_typed("len", Kind::Map, length)?;
    Ok(())
}
