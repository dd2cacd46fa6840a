//! wgpu's backend enum: one name per variant, in `to_str`.

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
}

/// What an adapter reports about itself, declared beside the enum as
/// wgpu-types does.
#[derive(Clone, Debug)]
pub struct AdapterInfo {
    pub name: String,
    pub vendor: u32,
    pub device: u32,
    pub driver: String,
    pub backend: Backend,
}
