//! The CUDA plugin of an accelerator framework it does not define: every
//! registration API it calls lives in the dependency `accel-framework`.

use accel_framework::{Backend, Pipeline, Registry, RegistryError};
use trace_hooks::Hooks;

struct Cuda {
    asynchronous: bool,
}

impl Backend for Cuda {
    fn name(&self) -> &str {
        if self.asynchronous { "cuda-async" } else { "cuda" }
    }
}

fn make_cuda() -> Box<dyn Backend> {
    Box::new(Cuda { asynchronous: false })
}

fn make_cuda_async() -> Box<dyn Backend> {
    Box::new(Cuda { asynchronous: true })
}

/// Called once by the host at start-up.
pub fn register(registry: &mut Registry, hooks: &mut Hooks) -> Result<(), RegistryError> {
    registry.register_backend_factory("cuda", make_cuda)?;
    registry.add_platform("cuda", 10)?;
    // The asynchronous client, added later under the same name: the
    // framework returns `AlreadyRegistered` (the seed bug).
    registry.register_backend_factory("cuda", make_cuda_async)?; //~ duplicate_registration
    registry.add_platform("cuda", 20)?; //~ duplicate_registration
    // Replacing by design: the last factory of a name wins.
    registry.set_backend_factory("rocm", make_cuda);
    registry.set_backend_factory("rocm", make_cuda_async);
    // `trace-hooks` rejects a second hook too, but it is a path dependency
    // outside the checkout: never read, so nothing is learned from it.
    hooks.install("trace", || ()).map_err(RegistryError::AlreadyRegistered)?;
    hooks.install("trace", || ()).map_err(RegistryError::AlreadyRegistered)?;
    Ok(())
}

fn decode(_: &mut Vec<u8>) {}

fn decode_fast(_: &mut Vec<u8>) {}

pub struct Fusion;

pub struct Tiling;

/// The CUDA pipeline: a builder of the framework that hands itself back.
pub fn pipeline() -> Pipeline {
    let mut pipeline = Pipeline::new().stage("decode", decode).stage("decode", decode_fast); //~ duplicate_registration
    pipeline.add_pass::<Fusion>().add_pass::<Tiling>();
    pipeline.add_pass::<Fusion>(); //~ duplicate_registration
    pipeline
}

/// Two pipelines: each has its own `decode`.
pub fn pipelines() -> (Pipeline, Pipeline) {
    (Pipeline::new().stage("decode", decode), Pipeline::new().stage("decode", decode_fast))
}
