//! `impossible_value_comparison` through fields: the receiver's type is the
//! type a struct declares for that field, in the same file or in a file
//! defining a value set. Analysed as one crate.

mod adapter;
mod backend;

pub use adapter::{Selected, Surface};
pub use backend::{AdapterInfo, Backend};

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
