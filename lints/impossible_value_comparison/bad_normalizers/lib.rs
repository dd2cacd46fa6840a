//! A std normalizer's output compared with what it can never be: the
//! shapes of cubecl's architecture parsers and ort's build script (link.rs).

pub mod arch;
pub mod link;

pub enum Backend {
    Cuda,
    Metal,
}

impl Backend {
    pub fn as_str(&self) -> &'static str {
        match self {
            Backend::Cuda => "Cuda",
            Backend::Metal => "Metal",
        }
    }
}

// Lowercased, `"Cuda"` is `"cuda"`: `"gpu"` is neither value.
pub fn is_gpu(b: &Backend) -> bool {
    b.as_str().to_lowercase() == "gpu" //~ impossible_value_comparison
}
