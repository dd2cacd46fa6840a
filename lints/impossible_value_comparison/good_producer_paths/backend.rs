pub trait Runtime {
    fn name(client: &Client) -> &'static str;
}

pub struct Client;

pub struct CudaRuntime;

impl Runtime for CudaRuntime {
    fn name(_client: &Client) -> &'static str {
        "cuda"
    }
}

#[derive(Clone, Copy)]
pub enum Backend {
    Vulkan,
    Metal,
    Gl,
}

impl Backend {
    // A `match` of literals made a `String` after it.
    pub fn owned(&self) -> String {
        match self {
            Backend::Vulkan => "vulkan",
            Backend::Metal => "metal",
            Backend::Gl => "gl",
        }
        .to_string()
    }

    pub fn to_str(self) -> &'static str {
        match self {
            Backend::Vulkan => "vulkan",
            Backend::Metal => "metal",
            Backend::Gl => "gl",
        }
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.to_str())
    }
}

pub struct MetalRuntime;

impl Runtime for MetalRuntime {
    fn name(_client: &Client) -> &'static str {
        "metal"
    }
}

impl Backend {
    // Lowercased after the `match`: not the literals' values.
    pub fn lowered(&self) -> String {
        match self {
            Backend::Vulkan => "Vulkan",
            Backend::Metal => "Metal",
            Backend::Gl => "GL",
        }
        .to_lowercase()
    }
}
