//! `lowering_backend_mismatch`: a context given a backend for one platform and
//! lowered for platforms that backend is not for. `ctx.get_backend()` on a
//! multi-platform context and loops over platforms are in `bad_multi_platform.rs`.

pub struct Error;
pub struct Executable;

pub struct Backend {
    platform: String,
}

pub struct Client;

impl Client {
    pub fn get_backend(&self, platform: &str) -> Result<Backend, Error> {
        Ok(Backend { platform: platform.to_string() })
    }
}

pub mod xla {
    pub mod client {
        pub fn get_backend(platform: &str) -> Result<super::super::Backend, super::super::Error> {
            super::super::get_backend(platform)
        }
    }
}

/// The builder-style context, as a Rust binding of JAX's `ModuleContext` could spell it.
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

    pub fn replace_backend(&mut self, backend: Backend) -> Option<Backend> {
        self.backend.replace(backend)
    }

    pub fn lower_for(&self, platforms: &[&str]) -> Result<Executable, Error> {
        let _ = platforms;
        Err(Error)
    }
}

/// A context whose backend is not optional.
pub struct ModuleContext {
    pub backend: Backend,
    pub platforms: &'static [&'static str],
}

pub fn get_backend(platform: &str) -> Result<Backend, Error> {
    Ok(Backend { platform: platform.to_string() })
}

pub fn lower(ctx: &LoweringContext, platforms: &[&str]) -> Result<Executable, Error> {
    ctx.lower_for(platforms)
}

pub fn compile<C>(ctx: &C) -> Result<Executable, Error> {
    let _ = ctx;
    Err(Error)
}

const CPU_PLATFORM: &str = "cpu";
const TPU_PLATFORM: &str = "tpu";

// A struct literal with a `cpu` backend and the platform list `["gpu"]`:
// `gpu` stands for cuda, rocm and oneapi, none of which is `cpu`.
pub fn struct_literal() -> Result<Executable, Error> {
    let ctx = LoweringContext {
        backend: Some(get_backend("cpu")?),
        platforms: vec!["gpu"], //~ lowering_backend_mismatch
    };
    compile(&ctx)
}

// A struct literal that is never bound to a variable.
pub fn unbound_struct_literal() -> Result<Executable, Error> {
    compile(&LoweringContext {
        backend: Some(get_backend("tpu")?),
        platforms: vec!["cpu"], //~ lowering_backend_mismatch
    })
}

// A `backend:` field without `Some`, unwrapped, and a borrowed array.
pub fn module_context() -> Result<Executable, Error> {
    let ctx = ModuleContext {
        backend: get_backend("metal").unwrap(),
        platforms: &["cuda"], //~ lowering_backend_mismatch
    };
    compile(&ctx)
}

// `with_backend` on a builder, then `lower(&ctx, &["gpu"])`.
pub fn builder_then_lower() -> Result<Executable, Error> {
    let ctx = LoweringContext::new().with_backend(get_backend("cpu")?);
    lower(&ctx, &["gpu"]) //~ lowering_backend_mismatch
}

// `set_backend`, then the platforms assigned to the field, over several lines:
// the marker is where the list starts.
pub fn set_backend_then_assign() -> Result<Executable, Error> {
    let mut ctx = LoweringContext::new();
    ctx.set_backend(get_backend("tpu").unwrap());
    ctx.platforms = vec![ //~ lowering_backend_mismatch
        "cuda",
        "rocm",
    ];
    compile(&ctx)
}

// `replace_backend` on a parameter, then a method whose name starts with `lower`.
pub fn replace_backend_then_lower_for(mut ctx: LoweringContext) -> Result<Executable, Error> {
    ctx.replace_backend(get_backend("cuda")?);
    ctx.lower_for(&["cpu"]) //~ lowering_backend_mismatch
}

// A qualified `xla::client::get_backend`, lowered for two platforms, neither `metal`.
pub fn qualified_get_backend() -> Result<Executable, Error> {
    let ctx = LoweringContext::new().with_backend(xla::client::get_backend("metal")?);
    lower(&ctx, &["cpu", "tpu"]) //~ lowering_backend_mismatch
}

// A method `client.get_backend("rocm")`: `rocm` is a GPU, but not a CUDA one.
pub fn method_get_backend(client: &Client) -> Result<Executable, Error> {
    let ctx = LoweringContext::new().with_backend(client.get_backend("rocm")?);
    ctx.lower_for(&["cuda"]) //~ lowering_backend_mismatch
}

// String constants on both sides are resolved.
pub fn string_consts() -> Result<Executable, Error> {
    let ctx = LoweringContext::new().with_backend(get_backend(CPU_PLATFORM)?);
    lower(&ctx, &[TPU_PLATFORM]) //~ lowering_backend_mismatch
}

// One context lowered twice, for two wrong platforms: one finding each.
pub fn lowered_twice() -> Result<(), Error> {
    let ctx = LoweringContext::new().with_backend(get_backend("cpu")?);
    lower(&ctx, &["cuda"])?; //~ lowering_backend_mismatch
    lower(&ctx, &["tpu"])?; //~ lowering_backend_mismatch
    Ok(())
}

// A correct lowering next to a wrong one on the same context: only the wrong
// one is reported.
pub fn one_right_one_wrong() -> Result<(), Error> {
    let ctx = LoweringContext::new().with_backend(get_backend("cuda")?);
    lower(&ctx, &["cuda"])?;
    lower(&ctx, &["rocm"])?; //~ lowering_backend_mismatch
    Ok(())
}

// A context rebuilt from itself keeps its backend: `let ctx = ctx.with_backend(..)`.
pub fn rebuilt_from_itself() -> Result<(), Error> {
    let ctx = LoweringContext::new();
    let ctx = ctx.with_backend(get_backend("tpu")?);
    lower(&ctx, &["rocm"]) //~ lowering_backend_mismatch
}

// The backend set last before the lowering is the one that counts.
pub fn replaced_then_mismatched(module: &Module) -> Result<Executable, Error> {
    let mut ctx = LoweringContext::new(module);
    ctx.set_backend(get_backend("cuda")?);
    lower(&ctx, &["cuda"])?;
    ctx.set_backend(get_backend("cpu")?);
    lower(&ctx, &["tpu"]) //~ lowering_backend_mismatch
}

// A context derived from a parameter: `ctx` has the backend, whatever `base` had.
pub fn derived_from_parameter(base: &LoweringContext) -> Result<Executable, Error> {
    let ctx = base.with_backend(get_backend("cpu")?);
    lower(&ctx, &["gpu"]) //~ lowering_backend_mismatch
}
