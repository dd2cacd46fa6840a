//! `duplicate_registration`: registrations written inside macro invocations
//! are analysed: `lazy_static!` and `thread_local!` initializers, macros whose
//! arguments are Rust code, and `inventory::submit!` bodies that call a
//! function whose name starts with `register`.
//!
//! Every case uses its own (callee, receiver, key) group.

use lazy_static::lazy_static;
use std::cell::RefCell;

// The initializer of a `lazy_static!` item registers `cuda` twice.
lazy_static! {
    static ref REGISTRY: Registry = {
        let mut r = Registry::new();
        r.register("cuda", make_cuda_client);
        r.register("cuda", make_cuda_client_async); //~ duplicate_registration
        r
    };
}

// `pub static ref`, after another item of the same `lazy_static!`.
lazy_static! {
    static ref DEVICE_COUNT: usize = 8;
    pub static ref PLUGINS: PluginRegistry = {
        let mut plugins = PluginRegistry::default();
        plugins.register_plugin("rocm", load_pjrt_plugin("libpjrt_rocm.so"));
        plugins.register_plugin("rocm", load_pjrt_plugin("libpjrt_rocm6.so")); //~ duplicate_registration
        plugins
    };
}

// The initializer of a `thread_local!` item.
thread_local! {
    static KERNELS: RefCell<KernelRegistry> = {
        let mut kernels = KernelRegistry::default();
        kernels.register_kernel("tpu_sort", tpu_sort);
        kernels.register_kernel("tpu_sort", tpu_sort_v2); //~ duplicate_registration
        RefCell::new(kernels)
    };
}

// A user macro whose argument is a call: twice the same registration.
pub fn init_tpu() {
    my_init!(register_backend("tpu", make_tpu_client));
    my_init!(register_backend("tpu", make_tpu_client_v2)); //~ duplicate_registration
}

// A user macro whose argument is a block of statements.
pub fn init_metal(registry: &mut Registry) {
    timed!({
        registry.register_backend("metal", make_metal_client);
        registry.register_backend("metal", make_metal_client_v2); //~ duplicate_registration
    });
}

// `inventory::submit!` of a call whose name starts with `register`: a
// registration like any other.
inventory::submit! {
    KernelEntry::register("sort_f32", sort_f32_cpu)
}

inventory::submit! {
    KernelEntry::register("sort_f32", sort_f32_avx512) //~ duplicate_registration
}
