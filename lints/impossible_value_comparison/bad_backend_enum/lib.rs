//! `impossible_value_comparison`: calls of a backend enum's `to_str`, whose
//! values the enum's `match` decides, compared with names it never returns.
//! Each call's type is written in the code. Analysed as one crate.

mod backend;

pub use backend::Backend;

// A parameter of the type: `"d3d12"` is spelled `"dx12"` by `to_str`.
pub fn shader_dialect(backend: Backend) -> &'static str {
    match backend.to_str() {
        "vulkan" => "spirv",
        "d3d12" => "hlsl", //~ impossible_value_comparison
        "metal" => "msl",
        _ => "glsl",
    }
}

// A local holding the name, from a variant.
pub fn default_adapter_name() -> String {
    let backend = Backend::Gl;
    let name = backend.to_str();
    if name == "opengl" { //~ impossible_value_comparison
        return "ANGLE".to_string();
    }
    name.to_string()
}

// A literal list, one name of it never returned.
pub fn runs_in_browser(backend: &Backend) -> bool {
    ["webgpu", "webgl"].contains(&backend.to_str()) //~ impossible_value_comparison
}

// By its path, the type's name written; the literal on the left.
pub fn is_cuda(backend: Backend) -> bool {
    "cuda" == Backend::to_str(backend) //~ impossible_value_comparison
}

// Case matters to `==`.
pub fn is_vulkan(backend: Backend) -> bool {
    backend.to_str().eq("Vulkan") //~ impossible_value_comparison
}
