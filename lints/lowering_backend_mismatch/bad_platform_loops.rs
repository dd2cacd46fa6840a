//! `lowering_backend_mismatch`: a backend fixed for one platform, lowered in a
//! loop over a literal list of several platforms for the loop variable, in the
//! forms `bad_multi_platform.rs` does not cover. The finding is on the loop's
//! list.

pub struct Error;
pub struct Executable;

#[derive(Clone)]
pub struct Backend;

#[derive(Default, Clone)]
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

pub fn compile(ctx: &LoweringContext) -> Result<Executable, Error> {
    let _ = ctx;
    Err(Error)
}

pub fn wanted(platform: &str) -> bool {
    !platform.is_empty()
}

const CPU: &str = "cpu";
const TPU: &str = "tpu";

// `.iter()` over a literal array; the loop variable is dereferenced.
pub fn iter_over_array() -> Result<(), Error> {
    let ctx = LoweringContext::new().with_backend(get_backend("cuda")?);
    for p in ["cpu", "cuda"].iter() { //~ lowering_backend_mismatch
        lower(&ctx, &[*p])?;
    }
    Ok(())
}

// A borrowed array in another order, a reference pattern, a method call.
pub fn ref_pattern() -> Result<(), Error> {
    let ctx = LoweringContext::new().with_backend(get_backend("cpu")?);
    for &p in &["tpu", "cpu"] { //~ lowering_backend_mismatch
        ctx.lower_for(&[p])?;
    }
    Ok(())
}

// `.iter().enumerate()`: the platform is the second element of the pattern.
pub fn enumerated() -> Result<Vec<(usize, Executable)>, Error> {
    let ctx = LoweringContext::new().with_backend(get_backend("tpu")?);
    let mut out = Vec::new();
    for (i, p) in ["tpu", "rocm"].iter().enumerate() { //~ lowering_backend_mismatch
        out.push((i, lower(&ctx, &[*p])?));
    }
    Ok(out)
}

// A list of string constants.
pub fn const_list() -> Result<(), Error> {
    let mut ctx = LoweringContext::new();
    ctx.set_backend(get_backend("cpu")?);
    for p in [CPU, TPU] { //~ lowering_backend_mismatch
        lower(&ctx, &[p])?;
    }
    Ok(())
}

// The lowering is nested in an `if` inside the loop.
pub fn nested_lowering() -> Result<(), Error> {
    let ctx = LoweringContext::new().with_backend(get_backend("metal")?);
    for p in ["metal", "cuda"] { //~ lowering_backend_mismatch
        if wanted(p) {
            ctx.lower_for(&[p])?;
        }
    }
    Ok(())
}

// The platforms assigned to the outer context inside the loop.
pub fn assigned_in_loop() -> Result<(), Error> {
    let mut ctx = LoweringContext::new().with_backend(get_backend("rocm")?);
    for p in ["rocm", "oneapi", "cpu"] { //~ lowering_backend_mismatch
        ctx.platforms = vec![p];
        compile(&ctx)?;
    }
    Ok(())
}

// A context built inside the loop with `platforms: vec![p]`, reusing the
// outer context's backend through struct update syntax.
pub fn struct_update_in_loop() -> Result<(), Error> {
    let base = LoweringContext::new().with_backend(get_backend("cuda")?);
    for p in ["cuda", "tpu"] { //~ lowering_backend_mismatch
        let ctx = LoweringContext {
            platforms: vec![p],
            ..base.clone()
        };
        compile(&ctx)?;
    }
    Ok(())
}

// A context built inside the loop for a fixed platform, with
// `platforms: vec![p]`: every iteration pairs a `tpu` backend with `p`.
pub fn fixed_backend_in_loop() -> Result<(), Error> {
    for p in ["tpu", "cpu"] { //~ lowering_backend_mismatch
        let ctx = LoweringContext {
            backend: Some(get_backend("tpu")?),
            platforms: vec![p],
        };
        compile(&ctx)?;
    }
    Ok(())
}
