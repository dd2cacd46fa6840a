//! `lowering_backend_mismatch`: near misses of `bad_context_functions/`:
//! contexts made by a function and lowered for its backend's platform, a
//! backend set again by the caller, and a function of one name defined in
//! two modules. Analysed as one crate.

mod context;
mod names;
mod other;

use context::{Error, Executable, accelerator_context, get_backend, host_context};

pub fn compile_for_host() -> Result<Executable, Error> {
    let ctx = host_context()?;
    ctx.lower_for(&["cpu"])
}

pub fn compile_for_accelerator() -> Result<Executable, Error> {
    accelerator_context()?.lower_for(&["tpu"])
}

// The caller gives the context the backend it lowers for.
pub fn compile_for_gpu() -> Result<Executable, Error> {
    let ctx = host_context()?.with_backend(get_backend("cuda")?);
    ctx.lower_for(&["cuda"])
}

// `make` is defined twice (here for `cpu`, in `other` for `cuda`).
pub fn compile_made() -> Result<Executable, Error> {
    let ctx = make()?;
    ctx.lower_for(&["cuda"])
}

pub fn make() -> Result<context::LoweringContext, Error> {
    Ok(context::LoweringContext::new().with_backend(get_backend("cpu")?))
}
