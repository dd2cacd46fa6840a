//! `impossible_value_comparison` through fields: the receiver's type is the
//! type a struct of the crate declares for that field. Analysed as one crate.

mod adapter;
mod backend;

pub use adapter::{AdapterInfo, Selected, Surface};
pub use backend::Backend;

// A parameter's field: `AdapterInfo::backend` is a `Backend`, whose
// `to_str` says `"gl"`.
pub fn is_opengl(info: &AdapterInfo) -> bool {
    info.backend.to_str() == "opengl" //~ impossible_value_comparison
}

impl AdapterInfo {
    // A field of `self`.
    pub fn is_direct3d(&self) -> bool {
        matches!(self.backend.to_str(), "d3d12" | "dx12") //~ impossible_value_comparison
    }
}

impl Surface {
    // Two fields deep, through a local.
    pub fn shader_model(&self) -> u32 {
        let backend = self.adapter.backend.to_str();
        if backend == "mtl" { //~ impossible_value_comparison
            return 2;
        }
        1
    }
}

// A tuple struct's field.
pub fn prefers_webgpu(selected: &Selected) -> bool {
    selected.0.to_str().starts_with("wgpu") //~ impossible_value_comparison
}
