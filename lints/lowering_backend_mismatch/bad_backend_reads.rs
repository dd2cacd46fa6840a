//! `lowering_backend_mismatch`: `ctx.get_backend()` on a context lowered for
//! several platforms, in the forms `bad_multi_platform.rs` does not cover.
//! JAX raises "accessing .backend in multi-lowering setting" there: one module
//! for several platforms has no single backend. The finding points at the
//! `get_backend()` call.

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

    pub fn get_backend(&self) -> Option<&Backend> {
        self.backend.as_ref()
    }

    pub fn lower_for(&self, platforms: &[&str]) -> Result<Executable, Error> {
        let _ = platforms;
        Err(Error)
    }
}

/// A context whose backend is not optional and whose platforms are borrowed.
pub struct ModuleContext {
    pub backend: Backend,
    pub platforms: &'static [&'static str],
}

impl ModuleContext {
    pub fn get_backend(&self) -> &Backend {
        &self.backend
    }
}

pub struct Lowerer {
    pub ctx: LoweringContext,
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

pub fn emit_host_callback(backend: &Backend) -> Result<(), Error> {
    let _ = backend;
    Ok(())
}

const CPU: &str = "cpu";
const CUDA: &str = "cuda";

// The platforms come from a free `lower(..)` call; the backend is read after.
pub fn read_after_lowering() -> Result<(), Error> {
    let ctx = LoweringContext::new().with_backend(get_backend("cpu")?);
    lower(&ctx, &["cpu", "tpu"])?;
    emit_custom_call(ctx.get_backend()) //~ lowering_backend_mismatch
}

// A borrowed platform list in a struct whose backend fits one of them.
pub fn borrowed_platforms() -> Result<(), Error> {
    let ctx = ModuleContext {
        backend: get_backend("tpu")?,
        platforms: &["tpu", "cpu"],
    };
    emit_host_callback(ctx.get_backend()) //~ lowering_backend_mismatch
}

// A platform list of string constants.
pub fn const_platforms() -> Result<(), Error> {
    let ctx = LoweringContext {
        backend: None,
        platforms: vec![CPU, CUDA],
    };
    emit_custom_call(ctx.get_backend()) //~ lowering_backend_mismatch
}

// The alias and a canonical name are two entries.
pub fn alias_and_cpu() -> Result<(), Error> {
    let ctx = LoweringContext {
        backend: None,
        platforms: vec!["gpu", "cpu"],
    };
    emit_custom_call(ctx.get_backend()) //~ lowering_backend_mismatch
}

// The read inside a nested block and a closure of the same function.
pub fn read_in_closure(use_callback: bool) -> Result<(), Error> {
    let ctx = LoweringContext {
        backend: None,
        platforms: vec!["cuda", "rocm"],
    };
    if use_callback {
        let emit = || emit_custom_call(ctx.get_backend()); //~ lowering_backend_mismatch
        emit()?;
    }
    Ok(())
}

// A context held in a field of `self`.
impl Lowerer {
    pub fn emit(&mut self) -> Result<(), Error> {
        self.ctx.platforms = vec!["cpu", "cuda"];
        emit_custom_call(self.ctx.get_backend()) //~ lowering_backend_mismatch
    }
}

// Unwrapped on the spot: the finding is on the `get_backend()` call.
pub fn unwrapped() -> Result<(), Error> {
    let ctx = LoweringContext::new().with_backend(get_backend("cuda")?);
    ctx.lower_for(&["cuda", "cpu"])?;
    emit_host_callback(ctx.get_backend().unwrap()) //~ lowering_backend_mismatch
}

// Two multi-platform lists: one finding for the one `get_backend()`.
pub fn two_lists() -> Result<(), Error> {
    let ctx = LoweringContext {
        backend: None,
        platforms: vec!["cpu", "cuda"],
    };
    lower(&ctx, &["cpu", "tpu"])?;
    emit(ctx.get_backend()) //~ lowering_backend_mismatch
}
