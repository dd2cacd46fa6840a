//! `impossible_value_comparison`: near misses of `bad_backend_enum/` that
//! must stay silent: values the function returns, calls of unknown type,
//! a type name two enums share, trait default methods, `assert_ne!`, tests.
//! Analysed as one crate.

mod backend;
mod device;

pub use backend::Backend;

// Every pattern is a value `to_str` returns.
pub fn shader_dialect(backend: Backend) -> &'static str {
    match backend.to_str() {
        "vulkan" => "spirv",
        "dx12" => "hlsl",
        "metal" => "msl",
        _ => "glsl",
    }
}

// Case ignored: `"METAL"` matches `"metal"`.
pub fn is_metal(backend: Backend) -> bool {
    backend.to_str().eq_ignore_ascii_case("METAL")
}

// The receiver's type is not written: `to_str` of what?
pub fn is_vulkan_path(path: &std::path::Path) -> bool {
    path.to_str() == Some("vulkan-1.dll")
}

// `legacy::Backend::to_str` gives `"opengl"`: a call the model ties to it
// may compare with it.
pub fn is_legacy_opengl(backend: backend::legacy::Backend) -> bool {
    backend.to_str() == "opengl"
}

// Stating that a value is never returned is what `assert_ne!` is for.
pub fn check_names() {
    assert_ne!(Backend::Gl.to_str(), "opengl");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(Backend::Metal.to_str() != "mtl");
    }
}
