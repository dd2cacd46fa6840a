//! `lowering_backend_mismatch`: a context built with a backend in one
//! function and lowered by its caller for another platform; a backend from
//! a constant defined (through another constant) in another module.
//! Analysed as one crate.

mod context;
mod names;

use context::{Error, Executable, accelerator_context, host_context};

pub fn compile_for_gpu() -> Result<Executable, Error> {
    let ctx = host_context()?;
    ctx.lower_for(&["cuda"]) //~ lowering_backend_mismatch
}

pub fn compile_in_place() -> Result<Executable, Error> {
    host_context()?.lower_for(&["rocm"]) //~ lowering_backend_mismatch
}

pub fn compile_for_accelerator() -> Result<Executable, Error> {
    let ctx = accelerator_context()?;
    ctx.lower_for(&["gpu"]) //~ lowering_backend_mismatch
}
