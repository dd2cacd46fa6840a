//! `lowering_backend_mismatch`: near misses of `bad_backend_reads.rs` and
//! `bad_platform_loops.rs` that must stay silent, for this lint and every
//! other one.

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

    pub fn get_backend(&self) -> Option<&Backend> {
        self.backend.as_ref()
    }

    pub fn lower_for(&self, platforms: &[&str]) -> Result<Executable, Error> {
        let _ = platforms;
        Err(Error)
    }
}

pub struct Client;

impl Client {
    pub fn get_backend(&self) -> Option<&Backend> {
        None
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

pub fn emit_custom_call(backend: Option<&Backend>) -> Result<(), Error> {
    let _ = backend;
    Ok(())
}

pub fn log_platform(platform: &str) {
    let _ = platform;
}

// One platform from a `lower(..)` call: the context has one backend.
pub fn single_platform_lowering() -> Result<(), Error> {
    let ctx = LoweringContext::new().with_backend(get_backend("tpu")?);
    lower(&ctx, &["tpu"])?;
    emit_custom_call(ctx.get_backend())
}

// `["gpu"]` is one entry: one backend, whichever GPU it is.
pub fn gpu_platform() -> Result<(), Error> {
    let ctx = LoweringContext {
        backend: Some(get_backend("cuda")?),
        platforms: vec!["gpu"],
    };
    emit_custom_call(ctx.get_backend())
}

// Two contexts: the backend is read from the single-platform one only.
pub fn two_contexts() -> Result<(), Error> {
    let multi = LoweringContext {
        backend: None,
        platforms: vec!["cpu", "cuda"],
    };
    let single = LoweringContext::new().with_backend(get_backend("cuda")?);
    single.lower_for(&["cuda"])?;
    compile(&multi)?;
    emit_custom_call(single.get_backend())
}

// `get_backend()` on something that is not a lowering context.
pub fn client_backend(client: &Client) -> Result<(), Error> {
    let ctx = LoweringContext {
        backend: None,
        platforms: vec!["cpu", "cuda"],
    };
    compile(&ctx)?;
    emit_custom_call(client.get_backend())
}

// A multi-platform context rebound to a new single-platform one before the read.
pub fn rebound_before_read() -> Result<(), Error> {
    let ctx = LoweringContext {
        backend: None,
        platforms: vec!["cpu", "cuda"],
    };
    compile(&ctx)?;
    let ctx = LoweringContext {
        backend: Some(get_backend("cpu")?),
        platforms: vec!["cpu"],
    };
    emit_custom_call(ctx.get_backend())
}

// `.iter()` over a literal array, the context built inside the loop with
// `get_backend(p)`.
pub fn iter_with_context_per_platform() -> Result<(), Error> {
    for p in ["cpu", "cuda"].iter() {
        let ctx = LoweringContext::new().with_backend(get_backend(p)?);
        lower(&ctx, &[*p])?;
    }
    Ok(())
}

// A struct built inside the loop, backend and platforms both from `p`.
pub fn struct_per_platform() -> Result<(), Error> {
    for p in ["tpu", "cpu"] {
        let ctx = LoweringContext {
            backend: Some(get_backend(p)?),
            platforms: vec![p],
        };
        compile(&ctx)?;
    }
    Ok(())
}

// An outer context shadowed inside the loop by one built for `p`.
pub fn shadowed_in_loop() -> Result<(), Error> {
    let ctx = LoweringContext::new().with_backend(get_backend("cpu")?);
    lower(&ctx, &["cpu"])?;
    for p in ["cpu", "tpu"] {
        let ctx = LoweringContext::new().with_backend(get_backend(p)?);
        ctx.lower_for(&[p])?;
    }
    Ok(())
}

// A one-element list: the outer backend fits every iteration.
pub fn single_element_loop() -> Result<(), Error> {
    let ctx = LoweringContext::new().with_backend(get_backend("cuda")?);
    for p in ["cuda"] {
        lower(&ctx, &[p])?;
    }
    Ok(())
}

// An alias backend that fits every platform of an `.iter()` list.
pub fn alias_backend_over_gpus() -> Result<(), Error> {
    let ctx = LoweringContext::new().with_backend(get_backend("gpu")?);
    for p in ["cuda", "rocm", "oneapi"].iter() {
        ctx.lower_for(&[*p])?;
    }
    Ok(())
}

// A loop over several platforms that never lowers the outer context for the
// loop variable: it is lowered once, for its own platform.
pub fn loop_variable_not_lowered() -> Result<(), Error> {
    let ctx = LoweringContext::new().with_backend(get_backend("cuda")?);
    for p in ["cpu", "cuda"] {
        log_platform(p);
    }
    lower(&ctx, &["cuda"])?;
    Ok(())
}
