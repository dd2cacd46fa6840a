//! `duplicate_registration`: keys that are constants defined through other
//! constants (`const DEFAULT: &str = CUDA;`), one level or a chain across
//! modules, resolved to their value as pjrt-rs-style plugin tables name them.
//! Analysed as one crate.

mod names;
mod plugins;

use pjrt::{register_backend, register_plugin};

// One level: `DEFAULT_PLATFORM` is `CUDA`, which is `"cuda"`.
pub fn init_default() {
    register_backend(names::DEFAULT_PLATFORM, make_cuda_client);
    register_backend("cuda", make_cuda_client_v2); //~ duplicate_registration
}

// A chain through two modules: `plugins::HOST` is `names::HOST`, which is
// `names::CPU`, which is `"cpu"`.
pub fn init_host() {
    register_plugin(plugins::HOST, load_pjrt_plugin("libpjrt_cpu.so"));
    register_plugin(names::CPU, load_pjrt_plugin("libpjrt_cpu_v2.so")); //~ duplicate_registration
}
