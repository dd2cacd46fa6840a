pub struct LogPlugin;
pub struct RenderPlugin;

pub mod ids {
    pub const GPU: u32 = 1;
    pub const CPU: u32 = 2;
}
