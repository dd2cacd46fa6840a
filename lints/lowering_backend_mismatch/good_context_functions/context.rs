//! The lowering API, and functions that build a context for their callers.

use crate::names;

pub struct Error;
pub struct Executable;
pub struct Backend;

pub fn get_backend(_platform: &str) -> Result<Backend, Error> {
    Ok(Backend)
}

#[derive(Default)]
pub struct LoweringContext {
    pub backend: Option<Backend>,
}

impl LoweringContext {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with_backend(mut self, backend: Backend) -> Self {
        self.backend = Some(backend);
        self
    }

    pub fn lower_for(&self, _platforms: &[&str]) -> Result<Executable, Error> {
        Err(Error)
    }
}

/// A context for the host.
pub fn host_context() -> Result<LoweringContext, Error> {
    Ok(LoweringContext::new().with_backend(get_backend("cpu")?))
}

/// A context whose backend is a constant of another module.
pub fn accelerator_context() -> Result<LoweringContext, Error> {
    let ctx = LoweringContext::new().with_backend(get_backend(names::ACCELERATOR)?);
    Ok(ctx)
}
