//! The same producers compared with what they give: no finding.

pub mod backend;

use backend::{Backend, Client, MetalRuntime, CudaRuntime, Runtime};

pub fn uses_hip(client: &Client) -> bool {
    <CudaRuntime as Runtime>::name(client) == "cuda"
}

// Another type's impl says `"metal"`.
pub fn uses_metal(client: &Client) -> bool {
    <MetalRuntime as Runtime>::name(client) == "metal"
}

pub fn is_gl(b: &Backend) -> bool {
    b.owned() == "gl" || format!("{b}") == "metal" || b.lowered() == "vulkan"
}

// `{b:?}` is `Debug`, not `Display`.
pub fn debug_name(b: Backend) -> bool {
    format!("{b:?}") == "Gl"
}
