//! A backend enum as wgpu writes it: one name per variant, in `to_str`.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    Noop,
    Vulkan,
    Metal,
    Dx12,
    Gl,
    BrowserWebGpu,
}

impl Backend {
    pub const fn to_str(self) -> &'static str {
        match self {
            Self::Noop => "noop",
            Self::Vulkan => "vulkan",
            Self::Metal => "metal",
            Self::Dx12 => "dx12",
            Self::Gl => "gl",
            Self::BrowserWebGpu => "webgpu",
        }
    }

    // `self` in the type's own impl: `to_str` never gives "mtl".
    pub fn is_apple(self) -> bool {
        self.to_str() == "mtl" //~ impossible_value_comparison
    }
}
