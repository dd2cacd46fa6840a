//! `duplicate_registration`: keys that resolve to the same value.
//!
//! Production code is one scope for the whole crate, so every case below uses
//! its own (callee, receiver, key) group: a finding in one case must not come
//! from a registration in another. The marker sits on the line of the key
//! argument of the later registration.

use xla_bridge::{register_backend_factory, register_plugin};

pub const CUDA: &str = "cuda";
pub static METAL_PLATFORM: &str = "metal";

// The same string literal twice in one function.
pub fn init_cpu_backends() {
    xla_bridge::register_backend_factory("cpu", make_cpu_client);
    xla_bridge::register_backend_factory("cpu", make_cpu_client_with_threads); //~ duplicate_registration
}

// A `const` on one side, the literal on the other; the path prefix of the
// callee (`xla_bridge::` or a `use`) does not make two registries.
pub fn init_cuda_backends() {
    xla_bridge::register_backend_factory(CUDA, make_cuda_client);
    register_backend_factory("cuda", make_cuda_client_async); //~ duplicate_registration
}

// Keys that differ only in ASCII case: platform names are lowercased before
// lookup, so "ROCm" replaces "rocm".
pub fn init_rocm_backends() {
    register_backend_factory("rocm", make_rocm_client);
    register_backend_factory("ROCm", make_rocm_client); //~ duplicate_registration
}

// A `static` string resolves like a `const`.
pub fn init_metal(registry: &mut Registry) {
    registry.register_backend(METAL_PLATFORM, make_metal_client);
    registry.register_backend("metal", make_metal_client); //~ duplicate_registration
}

// `String::from(..)` and `.to_string()` do not change the key.
pub fn init_tpu(registry: &mut Registry) {
    registry.register_backend(String::from("tpu"), make_tpu_client);
    registry.register_backend("tpu".to_string(), make_tpu_client_v2); //~ duplicate_registration
}

// `.into()`, `&..`, `.to_owned()` and `.as_str()` do not change the key either.
pub fn init_oneapi_plugin(plugins: &mut PluginRegistry) {
    plugins.register_plugin("oneapi".into(), OneApiPlugin::new());
    plugins.register_plugin(&"oneapi".to_owned().as_str(), OneApiPlugin::with_defaults()); //~ duplicate_registration
}

// A registry reached through a call: the receiver text `Registry::global()`
// is the same on both lines.
pub fn init_global_platforms() {
    Registry::global().register_platform("cuda", CudaPlatform::default());
    Registry::global().register_platform("cuda", CudaPlatform::with_streams(4)); //~ duplicate_registration
}

// Two methods of one type: production code is one scope, so the second
// method registers the custom call target again.
impl PrngRuntime {
    pub fn init(&mut self) {
        self.registry.register_custom_call_target("cu_threefry2x32", cu_threefry2x32 as *const ());
    }

    pub fn enable_threefry(&mut self) {
        self.registry.register_custom_call_target("cu_threefry2x32", cu_threefry2x32_v2 as *const ()); //~ duplicate_registration
    }
}

// A registry method that is not about platforms: element-wise primitives.
pub fn register_unary_ops(rules: &mut RuleRegistry) {
    rules.register_unit_element_wise("exp", exp_rule);
    rules.register_unit_element_wise("log", log_rule);
    rules.register_unit_element_wise("exp", exp2_rule); //~ duplicate_registration
}

// Three registrations of one key: every one after the first is reported.
pub fn load_cuda_plugin() {
    register_plugin("xla_cuda_plugin", load_pjrt_plugin("libpjrt_cuda.so"));
    register_plugin("xla_cuda_plugin", load_pjrt_plugin("libpjrt_cuda12.so")); //~ duplicate_registration
    register_plugin("xla_cuda_plugin", load_pjrt_plugin("libpjrt_cuda13.so")); //~ duplicate_registration
}

// Two later registrations on one line: two findings start on it. The alias
// table is keyed by alias, so only the last target survives.
pub fn register_short_names(aliases: &mut AliasTable) {
    aliases.register_alias("gpu", "cuda");
    aliases.register_alias("gpu", "rocm"); aliases.register_alias("gpu", "oneapi"); //~ duplicate_registration //~ duplicate_registration
}

// A call spread over several lines: the finding starts at the key argument,
// not at the call.
pub fn init_interpreter(registry: &mut Registry) {
    registry.register_backend_factory("interpreter", make_interpreter_client);
    registry.register_backend_factory(
        "interpreter", //~ duplicate_registration
        make_interpreter_client,
    );
}

// A registration written inside a macro invocation whose arguments parse as
// expressions is analysed like any other call.
pub fn init_with_logging() {
    register_backend_factory("tpu", make_tpu_client);
    log_step!(register_backend_factory("tpu", make_tpu_client)); //~ duplicate_registration
}
