//! The canonicalizer lives in its own module; callers import it.

pub fn canonicalize_platform(platform: &str) -> String {
    match platform.to_lowercase().as_str() {
        "gpu" => "cuda".to_string(),
        other => other.to_string(),
    }
}
