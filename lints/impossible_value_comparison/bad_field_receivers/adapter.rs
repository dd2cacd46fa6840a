//! Structs holding a backend, with the code using them in the same file.
//! No backend name is written here.

use crate::backend::{AdapterInfo, Backend};

/// A surface's adapter, one field further from the backend.
pub struct Surface {
    pub adapter: AdapterInfo,
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

/// A backend wrapped on its own.
pub struct Selected(pub Backend);

// A tuple struct's field.
pub fn prefers_webgpu(selected: &Selected) -> bool {
    selected.0.to_str().starts_with("wgpu") //~ impossible_value_comparison
}
