//! Known producers reached through a qualified path, a `match` made a
//! `String`, and a captured `format!` argument.

pub mod backend;

use backend::{Backend, Client, CudaRuntime, Runtime};

// `CudaRuntime::name` says `"cuda"`.
pub fn uses_rocm_cache(client: &Client) -> bool {
    <CudaRuntime as Runtime>::name(client) == "nvidia" //~ impossible_value_comparison
}

pub fn is_gles(b: &Backend) -> bool {
    b.owned() == "gles" //~ impossible_value_comparison
}

pub fn is_mtl(b: Backend) -> bool {
    format!("{b}") == "mtl" //~ impossible_value_comparison
}

pub fn caches_ptx(client: &Client) -> bool {
    let name = CudaRuntime::name(client);
    format!("{name}") == "CUDA" //~ impossible_value_comparison
}
