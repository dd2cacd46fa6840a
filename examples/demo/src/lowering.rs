//! Lowering a module for some platforms, with the backend that compiles it.

use crate::registry::{create_client, Client};
use crate::{canonicalize_platform, Error};

pub struct Module {
    pub name: String,
}

pub struct Executable {
    pub module: String,
    pub platform: &'static str,
}

pub struct LoweringContext {
    pub backend: Option<Client>,
    pub platforms: Vec<&'static str>,
}

/// The client of `platform` (an alias is fine: it is canonicalized here).
pub fn get_backend(platform: &str) -> Result<Client, Error> {
    create_client(&canonicalize_platform(platform))
}

pub fn lower(ctx: &LoweringContext, module: &Module) -> Result<Executable, Error> {
    let backend = ctx.backend.as_ref().ok_or_else(|| Error("no backend".into()))?;
    Ok(Executable { module: module.name.clone(), platform: backend.platform })
}

/// Compiles `module` for the GPU.
pub fn compile_for_gpu(module: &Module) -> Result<Executable, Error> {
    let ctx = LoweringContext {
        backend: Some(get_backend("cpu")?),
        // BUG(lowering_backend_mismatch): lowered for the GPU, compiled by the
        // CPU client. JAX refuses: "the platform for the specified backend cpu
        // is different from the lowering platform cuda".
        platforms: vec!["gpu"],
    };
    lower(&ctx, module)
}

/// Correct: a CUDA backend fits a lowering for `gpu`, which includes CUDA.
pub fn compile_for_cuda(module: &Module) -> Result<Executable, Error> {
    let ctx = LoweringContext {
        backend: Some(get_backend("cuda")?),
        platforms: vec!["gpu"],
    };
    lower(&ctx, module)
}
