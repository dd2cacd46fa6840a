//! `lowering_backend_mismatch`: contexts lowered for several platforms.
//! `ctx.get_backend()` has no single answer there, and a backend fixed
//! before a loop over platforms is wrong for some of them.

pub struct Error;
pub struct Executable;
pub struct Backend;

#[derive(Default)]
pub struct LoweringContext {
    pub backend: Option<Backend>,
    pub platforms: Vec<&'static str>,
}

impl LoweringContext {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with_backend(mut self, backend: Backend) -> Self {
        self.backend = Some(backend);
        self
    }

    pub fn set_backend(&mut self, backend: Backend) {
        self.backend = Some(backend);
    }

    pub fn get_backend(&self) -> Option<&Backend> {
        self.backend.as_ref()
    }

    pub fn lower_for(&self, platforms: &[&str]) -> Result<Executable, Error> {
        let _ = platforms;
        Err(Error)
    }
}

pub fn get_backend(platform: &str) -> Result<Backend, Error> {
    let _ = platform;
    Ok(Backend)
}

pub fn lower(ctx: &LoweringContext, platforms: &[&str]) -> Result<Executable, Error> {
    ctx.lower_for(platforms)
}

pub fn emit_custom_call(backend: Option<&Backend>) -> Result<(), Error> {
    let _ = backend;
    Ok(())
}

// `get_backend()` on a context whose `platforms:` field lists two platforms.
pub fn backend_of_multi_platform_literal() -> Result<(), Error> {
    let ctx = LoweringContext {
        backend: None,
        platforms: vec!["cpu", "cuda"],
    };
    emit_custom_call(ctx.get_backend()) //~ lowering_backend_mismatch
}

// The backend matches one of the platforms (`cpu`), so the list itself is
// fine; asking the context for its one backend is still an error.
pub fn backend_matches_one_but_read() -> Result<(), Error> {
    let mut ctx = LoweringContext::new().with_backend(get_backend("cpu")?);
    ctx.platforms = vec!["cpu", "tpu"];
    let backend = ctx.get_backend(); //~ lowering_backend_mismatch
    emit_custom_call(backend)
}

// The platforms come from a `lower*` call with two platforms.
pub fn backend_read_before_multi_lowering() -> Result<Executable, Error> {
    let ctx = LoweringContext::new();
    emit_custom_call(ctx.get_backend())?; //~ lowering_backend_mismatch
    ctx.lower_for(&["cuda", "rocm"])
}

// A backend fixed before the loop, lowered for each platform of the list:
// right for `cuda`, wrong for `cpu`. The finding is on the loop's list.
pub fn loop_over_platforms() -> Result<(), Error> {
    let ctx = LoweringContext::new().with_backend(get_backend("cuda")?);
    for p in ["cpu", "cuda"] { //~ lowering_backend_mismatch
        lower(&ctx, &[p])?;
    }
    Ok(())
}

// The same with `set_backend`, a borrowed list and a method call in the loop.
pub fn loop_with_method() -> Result<Vec<Executable>, Error> {
    let mut ctx = LoweringContext::new();
    ctx.set_backend(get_backend("tpu")?);
    let mut out = Vec::new();
    for platform in &["tpu", "cpu", "cuda"] { //~ lowering_backend_mismatch
        out.push(ctx.lower_for(&[platform])?);
    }
    Ok(out)
}

// An alias backend (`gpu`) fits `rocm` but not `metal`; the list is a
// `vec!` over several lines: the marker is where it starts.
pub fn loop_over_vec() -> Result<(), Error> {
    let ctx = LoweringContext::new().with_backend(get_backend("gpu")?);
    for p in vec![ //~ lowering_backend_mismatch
        "rocm",
        "metal",
    ] {
        lower(&ctx, &[p])?;
    }
    Ok(())
}
