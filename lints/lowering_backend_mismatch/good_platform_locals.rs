//! `lowering_backend_mismatch`: near misses of `bad_platform_locals.rs`: a
//! local list of the backend's platform, and a list assigned again.

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
    pub fn with_backend(mut self, backend: Backend) -> Self {
        self.backend = Some(backend);
        self
    }

    pub fn lower_for(&self, _platforms: &[&str]) -> Result<Executable, Error> {
        Err(Error)
    }
}

pub fn lower_for_targets() -> Result<Executable, Error> {
    let ctx = LoweringContext::default().with_backend(get_backend("cpu")?);
    let targets = ["cpu"];
    ctx.lower_for(&targets)
}

pub fn lower_for_chosen(on_gpu: bool) -> Result<Executable, Error> {
    let ctx = LoweringContext::default().with_backend(get_backend("cuda")?);
    let mut targets = ["cpu"];
    if on_gpu {
        targets = ["cuda"];
    }
    ctx.lower_for(&targets)
}
