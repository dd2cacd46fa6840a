//! `lowering_backend_mismatch`: the platform list held in a local before
//! the lowering (`let targets = ["gpu"]; ctx.lower_for(&targets)`).

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
    let targets = ["gpu"];
    ctx.lower_for(&targets) //~ lowering_backend_mismatch
}

pub fn lower_for_vec() -> Result<Executable, Error> {
    let ctx = LoweringContext::default().with_backend(get_backend("tpu")?);
    let targets = vec!["cuda", "rocm"];
    ctx.lower_for(&targets) //~ lowering_backend_mismatch
}
