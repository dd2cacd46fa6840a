//! Near misses of `bad_field_receivers/`: fields whose type is not known
//! from one struct of the crate, or values the function does return.

pub mod legacy;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Vulkan,
    Metal,
    Gl,
}

impl Backend {
    pub fn as_str(&self) -> &'static str {
        match self {
            Backend::Vulkan => "vulkan",
            Backend::Metal => "metal",
            Backend::Gl => "gl",
        }
    }
}

pub struct AdapterInfo {
    pub name: String,
    pub backend: Backend,
    pub fallback: Option<Backend>,
}

// A value it returns.
pub fn is_gl(info: &AdapterInfo) -> bool {
    info.backend.as_str() == "gl"
}

// A `String` field: `as_str` is `String::as_str`.
pub fn is_llvmpipe(info: &AdapterInfo) -> bool {
    info.name.as_str() == "llvmpipe"
}

// A generic field: `B` may be any type with an `as_str`.
pub struct Device<B> {
    pub backend: B,
}

pub trait Named {
    fn as_str(&self) -> &str;
}

impl<B: Named> Device<B> {
    pub fn is_cuda(&self) -> bool {
        self.backend.as_str() == "cuda"
    }
}

// A field of a type the crate does not declare.
pub fn is_cuda(props: &external::Properties) -> bool {
    props.backend.as_str() == "cuda"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        let info = AdapterInfo {
            name: String::new(),
            backend: Backend::Gl,
            fallback: None,
        };
        assert!(info.backend.as_str() != "opengl");
    }
}
