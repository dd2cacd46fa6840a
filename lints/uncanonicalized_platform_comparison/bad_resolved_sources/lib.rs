//! `uncanonicalized_platform_comparison`: two functions of one name, one a
//! source (`a::name`), one a canonicalizer (`b::name`): the model tells
//! which one each call calls. Analysed as one crate.

mod a;
mod b;

pub struct Client {
    platform: String,
}

impl Client {
    pub fn platform_name(&self) -> String {
        self.platform.clone()
    }
}

pub fn canonicalize_platform(name: &str) -> String {
    name.trim().to_ascii_lowercase()
}

// `a::name` gives the client's own spelling.
pub fn is_tpu(c: &Client) -> bool {
    a::name(c) == "tpu" //~ uncanonicalized_platform_comparison
}

// `b::name` canonicalizes it first.
pub fn is_canonical_tpu(c: &Client) -> bool {
    b::name(c) == "tpu"
}
