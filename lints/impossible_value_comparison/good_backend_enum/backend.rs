//! The enum of `bad_backend_enum/`, and a second `Backend` in another
//! module whose `to_str` returns other names.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    Noop,
    Vulkan,
    Metal,
    Dx12,
    Gl,
}

impl Backend {
    pub const fn to_str(self) -> &'static str {
        match self {
            Self::Noop => "noop",
            Self::Vulkan => "vulkan",
            Self::Metal => "metal",
            Self::Dx12 => "dx12",
            Self::Gl => "gl",
        }
    }

    // Parsing a name compares a `&str` parameter, not the enum's value.
    pub fn from_name(name: &str) -> Option<Backend> {
        match name {
            "vulkan" | "vk" => Some(Self::Vulkan),
            "metal" | "mtl" => Some(Self::Metal),
            _ => None,
        }
    }
}

pub mod legacy {
    /// Another `Backend`: calls of `to_str` on a `Backend` may mean either.
    pub enum Backend {
        Cuda,
        OpenGl,
    }

    impl Backend {
        pub fn to_str(&self) -> &'static str {
            match self {
                Backend::Cuda => "cuda",
                Backend::OpenGl => "opengl",
            }
        }
    }
}
