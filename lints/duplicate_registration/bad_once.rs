//! `duplicate_registration`: registrations in closures that are not their own
//! scope: two registrations inside one `get_or_init`/`call_once` closure, and
//! closures passed to other functions, which are code of the function around
//! them.
//!
//! Every case uses its own (callee, receiver, key) group.

use std::sync::{Once, OnceLock};

static REGISTRY: OnceLock<Registry> = OnceLock::new();
static INIT: Once = Once::new();

// Two registrations of one key inside the same `get_or_init` closure.
pub fn registry() -> &'static Registry {
    REGISTRY.get_or_init(|| {
        let mut r = Registry::new();
        r.register_backend("cuda", make_cuda_client);
        r.register_backend("cuda", make_cuda_client_async); //~ duplicate_registration
        r
    })
}

// Two registrations of one key inside the same `call_once` closure.
pub fn init() {
    INIT.call_once(|| {
        xla_bridge::register_backend_factory("tpu", make_tpu_client);
        xla_bridge::register_backend_factory("tpu", make_tpu_client_v2); //~ duplicate_registration
    });
}

// Two registrations inside one `get_or_insert_with` closure.
impl Runtime {
    pub fn plugins(&mut self) -> &mut PluginRegistry {
        self.plugins.get_or_insert_with(|| {
            let mut plugins = PluginRegistry::default();
            plugins.register_plugin("rocm", load_pjrt_plugin("libpjrt_rocm.so"));
            plugins.register_plugin("rocm", load_pjrt_plugin("libpjrt_rocm6.so")); //~ duplicate_registration
            plugins
        })
    }
}

// A closure passed to `thread::spawn` runs like any other production code:
// it and the function after it both register `metal`.
pub fn init_metal_in_background() {
    std::thread::spawn(|| {
        xla_bridge::register_platform("metal", MetalPlatform::default());
    });
}

pub fn init_metal() {
    xla_bridge::register_platform("metal", MetalPlatform::default()); //~ duplicate_registration
}

// A closure passed to `unwrap_or_else` is not a run-once initializer.
pub fn init_oneapi(config: &RuntimeConfig) {
    xla_bridge::register_plugin("oneapi", load_pjrt_plugin("libpjrt_oneapi.so"));
    config.oneapi_plugin().unwrap_or_else(|| {
        xla_bridge::register_plugin("oneapi", load_pjrt_plugin("libpjrt_oneapi_default.so")) //~ duplicate_registration
    });
}
