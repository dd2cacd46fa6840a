//! `lowering_backend_mismatch`: near misses that must stay silent, for this
//! lint and every other one.

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

pub mod names {
    pub const CUDA: &str = "cuda";
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

// The backend's platform is the lowering platform.
pub fn matching() -> Result<Executable, Error> {
    let ctx = LoweringContext {
        backend: Some(get_backend("cpu")?),
        platforms: vec!["cpu"],
    };
    compile(&ctx)
}

// `cuda` is one of the platforms `gpu` stands for.
pub fn cuda_backend_for_gpu() -> Result<Executable, Error> {
    let ctx = LoweringContext::new().with_backend(get_backend("cuda")?);
    lower(&ctx, &["gpu"])
}

// And the other way round: a `gpu` backend lowered for `rocm`.
pub fn gpu_backend_for_rocm() -> Result<Executable, Error> {
    let ctx = LoweringContext::new().with_backend(get_backend("gpu")?);
    ctx.lower_for(&["rocm"])
}

// A string constant that resolves to a matching platform.
pub fn const_backend() -> Result<Executable, Error> {
    let ctx = LoweringContext::new().with_backend(get_backend(names::CUDA)?);
    lower(&ctx, &["gpu"])
}

// Lowered for several platforms, one of which is the backend's: the list is
// fine, and no one asks the context for its single backend.
pub fn backend_among_platforms() -> Result<Executable, Error> {
    let mut ctx = LoweringContext::new();
    ctx.set_backend(get_backend("tpu")?);
    ctx.platforms = vec!["cpu", "tpu"];
    compile(&ctx)
}

// `get_backend()` on a context lowered for one platform has one answer.
pub fn backend_of_single_platform_context() -> Result<bool, Error> {
    let ctx = LoweringContext {
        backend: Some(get_backend("cuda")?),
        platforms: vec!["cuda"],
    };
    Ok(ctx.get_backend().is_some())
}

// A multi-platform lowering that asks for the backend of one named platform
// instead of the context's.
pub fn named_backend_in_multi_lowering() -> Result<Executable, Error> {
    let ctx = LoweringContext {
        backend: None,
        platforms: vec!["cpu", "cuda"],
    };
    let _cuda = get_backend("cuda")?;
    compile(&ctx)
}

// Two contexts in one function, each consistent on its own.
pub fn two_contexts() -> Result<(), Error> {
    let host = LoweringContext::new().with_backend(get_backend("cpu")?);
    let device = LoweringContext::new().with_backend(get_backend("cuda")?);
    lower(&host, &["cpu"])?;
    lower(&device, &["cuda"])?;
    Ok(())
}

// Two functions, each with a context named `ctx`: contexts never mix across
// functions.
pub fn host_lowering() -> Result<Executable, Error> {
    let ctx = LoweringContext::new().with_backend(get_backend("cpu")?);
    lower(&ctx, &["cpu"])
}

pub fn device_lowering() -> Result<Executable, Error> {
    let ctx = LoweringContext::new().with_backend(get_backend("tpu")?);
    lower(&ctx, &["tpu"])
}

// Platforms that are not literals: unknown, so never compared.
pub fn platforms_from_caller(platforms: &[&str], platform: &str) -> Result<(), Error> {
    let ctx = LoweringContext::new().with_backend(get_backend("cpu")?);
    lower(&ctx, platforms)?;
    lower(&ctx, &[platform])?;
    Ok(())
}

// A backend for a platform held in a variable: unknown, so never compared.
pub fn backend_from_caller(platform: &str) -> Result<Executable, Error> {
    let ctx = LoweringContext::new().with_backend(get_backend(platform)?);
    lower(&ctx, &["gpu"])
}

// The context is built inside the loop, with the backend of the platform
// being lowered.
pub fn loop_with_context_per_platform() -> Result<(), Error> {
    for p in ["cpu", "cuda"] {
        let ctx = LoweringContext::new().with_backend(get_backend(p)?);
        lower(&ctx, &[p])?;
    }
    Ok(())
}

// A backend fixed before the loop that fits every platform of the list.
pub fn loop_over_compatible_platforms() -> Result<(), Error> {
    let ctx = LoweringContext::new().with_backend(get_backend("gpu")?);
    for p in ["cuda", "rocm"] {
        lower(&ctx, &[p])?;
    }
    Ok(())
}

// The same name bound to a new context: each context is checked on its own.
pub fn two_contexts_one_name() -> Result<(), Error> {
    let ctx = LoweringContext::new().with_backend(get_backend("cpu")?);
    lower(&ctx, &["cpu"]);
    let ctx = LoweringContext::new().with_backend(get_backend("cuda")?);
    lower(&ctx, &["cuda"]);
    Ok(())
}

// A context rebuilt from itself stays the same context: still checked, and it matches.
pub fn rebuilt_from_itself() -> Result<(), Error> {
    let ctx = LoweringContext::new();
    let ctx = ctx.with_backend(get_backend("tpu")?);
    lower(&ctx, &["tpu"]);
    Ok(())
}

// A context variable assigned a new context: the old backend no longer applies.
pub fn reassigned_context() -> Result<Executable, Error> {
    let mut ctx = LoweringContext::new().with_backend(get_backend("cuda")?);
    ctx = LoweringContext::new().with_backend(get_backend("cpu")?);
    ctx.lower_for(&["cpu"])
}

// A backend per branch, each lowered in its own branch.
pub fn per_branch(module: &Module, on_gpu: bool) -> Result<Executable, Error> {
    let mut ctx = LoweringContext::new(module);
    if on_gpu {
        ctx.set_backend(get_backend("cuda")?);
        lower(&ctx, &["cuda"])
    } else {
        ctx.set_backend(get_backend("cpu")?);
        lower(&ctx, &["cpu"])
    }
}

// A backend replaced before the second lowering: each lowering uses the
// backend set last before it.
pub fn replaced_backend(module: &Module) -> Result<Executable, Error> {
    let mut ctx = LoweringContext::new(module);
    ctx.set_backend(get_backend("cuda")?);
    lower(&ctx, &["cuda"])?;
    ctx.set_backend(get_backend("cpu")?);
    lower(&ctx, &["cpu"])
}

// A context derived from a parameter has the backend; the parameter keeps its own.
pub fn derived_and_base(base: &LoweringContext) -> Result<(), Error> {
    let device = base.clone().with_backend(get_backend("cuda")?);
    lower(&device, &["cuda"])?;
    let host = base.clone().with_backend(get_backend("cpu")?);
    lower(&host, &["cpu"])?;
    lower(base, &["gpu"])?;
    Ok(())
}
