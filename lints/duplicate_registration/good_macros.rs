//! `duplicate_registration` must stay silent: macros that only look like
//! registrations: `inventory::submit!` of values built without a `register`
//! call, `macro_rules!` bodies (templates, not code that runs), `stringify!`,
//! and macro arguments that are not Rust code.

use lazy_static::lazy_static;
use std::cell::RefCell;

// `inventory::submit!` collects values; building one with `new` or a struct
// literal registers nothing, whatever the name inside.
inventory::submit! {
    Plugin::new("cuda", make_cuda_client)
}

inventory::submit! {
    Plugin::new("cuda", make_cuda_client_async)
}

inventory::submit! {
    BackendEntry { name: "rocm", factory: make_rocm_client }
}

inventory::submit! {
    BackendEntry { name: "rocm", factory: make_rocm_client }
}

// A `macro_rules!` body is never analysed, also when it is defined inside a
// function, and whatever its arms.
pub fn init_with_local_macro() {
    macro_rules! register_twice {
        ($name:literal) => {
            register_backend($name, make_client);
            register_backend($name, make_client);
        };
        () => {
            register_backend("tpu", make_tpu_client);
            register_backend("tpu", make_tpu_client);
        };
    }
}

macro_rules! init_oneapi {
    () => {
        xla_bridge::register_plugin("oneapi", load_pjrt_plugin("libpjrt_oneapi.so"));
        xla_bridge::register_plugin("oneapi", load_pjrt_plugin("libpjrt_oneapi.so"));
    };
}

// `stringify!` turns its argument into a string: nothing is called.
pub fn describe_init() -> [&'static str; 2] {
    [
        stringify!(register_backend("metal", make_metal_client)),
        stringify!(register_backend("metal", make_metal_client)),
    ]
}

// A declarative table whose syntax is not Rust code.
backend_table! {
    register_backend "cpu" => make_cpu_client;
    register_backend "cpu" => make_cpu_client_with_threads;
}

// `lazy_static!` items under exclusive `cfg`s: one is compiled.
lazy_static! {
    #[cfg(feature = "cuda")]
    static ref DEFAULT: Registry = {
        let mut r = Registry::new();
        r.register("default", make_cuda_client);
        r
    };
    #[cfg(not(feature = "cuda"))]
    static ref DEFAULT: Registry = {
        let mut r = Registry::new();
        r.register("default", make_cpu_client);
        r
    };
}

// `thread_local!` with one registration per key.
thread_local! {
    static KERNELS: RefCell<KernelRegistry> = {
        let mut kernels = KernelRegistry::default();
        kernels.register_kernel("tpu_sort", tpu_sort);
        kernels.register_kernel("tpu_argsort", tpu_argsort);
        RefCell::new(kernels)
    };
}
