//! `uncanonicalized_platform_comparison`: near misses of
//! `bad_inferred_sources/`: inferred sources canonicalized before the
//! comparison, a function returning a raw value or a literal (not a
//! source), two functions of one name that disagree, and names that are no
//! platform. Analysed as one crate.

mod a;
mod b;

pub struct Client {
    platform: String,
    model: String,
}

impl Client {
    pub fn platform_name(&self) -> String {
        self.platform.clone()
    }
}

pub fn canonicalize_platform(p: &str) -> String {
    p.to_lowercase()
}

pub fn platform_of(c: &Client) -> String {
    c.platform_name()
}

/// Canonicalized here: comparing the result is right.
pub fn canonical_platform(c: &Client) -> String {
    canonicalize_platform(&platform_of(c))
}

/// Raw or a literal: not a source.
pub fn platform_or_default(c: Option<&Client>) -> String {
    match c {
        Some(c) => c.platform_name(),
        None => "cpu".to_string(),
    }
}

/// Returns a model name: not a platform.
pub fn model_of(c: &Client) -> String {
    c.model.clone()
}

pub fn plugin_path(c: &Client) -> &'static str {
    if canonicalize_platform(&platform_of(c)) == "cuda" {
        "libpjrt_cuda.so"
    } else if canonical_platform(c) == "rocm" {
        "libpjrt_rocm.so"
    } else {
        "libpjrt_cpu.so"
    }
}

pub fn defaults_to_host(c: Option<&Client>) -> bool {
    platform_or_default(c) == "cpu"
}

pub fn is_a100(c: &Client) -> bool {
    model_of(c) == "A100"
}

// `a::name` is raw, `b::name` canonical: the model tells which is called.
pub fn by_name(c: &Client) -> bool {
    b::name(c) == "tpu"
}
