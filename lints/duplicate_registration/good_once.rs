//! `duplicate_registration` must stay silent: registrations inside a closure
//! passed to `get_or_init`, `get_or_insert_with` or `Once::call_once`. Such a
//! closure runs once and usually builds its own registry, so each one is its
//! own scope: it is compared with neither the rest of the function, nor other
//! closures, nor the rest of the crate.

use std::sync::{Once, OnceLock};

static REGISTRY: OnceLock<Registry> = OnceLock::new();
static FALLBACK_REGISTRY: OnceLock<Registry> = OnceLock::new();
static INIT: Once = Once::new();

// Two `get_or_init` closures, each building a registry with `cuda`.
pub fn registry() -> &'static Registry {
    REGISTRY.get_or_init(|| {
        let mut r = Registry::new();
        r.register_backend("cuda", make_cuda_client);
        r.register_backend("cpu", make_cpu_client);
        r
    })
}

pub fn fallback_registry() -> &'static Registry {
    FALLBACK_REGISTRY.get_or_init(|| {
        let mut r = Registry::new();
        r.register_backend("cuda", make_unavailable_client);
        r.register_backend("cpu", make_cpu_client);
        r
    })
}

// Production code outside the closures registers on a receiver of the same
// name: the closures above are not compared with it.
pub fn init_default(r: &mut Registry) {
    r.register_backend("cuda", make_cuda_client);
}

// `get_or_insert_with` on an `Option` field.
impl Runtime {
    pub fn plugins(&mut self) -> &mut PluginRegistry {
        self.plugins.get_or_insert_with(|| {
            let mut plugins = PluginRegistry::default();
            plugins.register_plugin("rocm", load_pjrt_plugin("libpjrt_rocm.so"));
            plugins
        })
    }

    pub fn init_plugins(&mut self, plugins: &mut PluginRegistry) {
        plugins.register_plugin("rocm", load_pjrt_plugin("libpjrt_rocm.so"));
    }
}

// `Once::call_once` from two entry points: whichever runs first registers,
// the other closure never runs.
pub fn init_from_python() {
    INIT.call_once(|| {
        xla_bridge::register_backend_factory("tpu", make_tpu_client);
    });
}

pub fn init_from_cli() {
    INIT.call_once(|| {
        xla_bridge::register_backend_factory("tpu", make_tpu_client);
    });
}

// A closure without a block body is its own scope as well.
pub fn init_metal_once() {
    INIT.call_once(|| xla_bridge::register_platform("metal", MetalPlatform::default()));
    INIT.call_once(|| xla_bridge::register_platform("metal", MetalPlatform::default()));
}
