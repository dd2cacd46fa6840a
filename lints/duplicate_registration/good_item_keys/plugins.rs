pub mod core {
    pub struct Plugin;
}

pub mod render {
    pub struct Plugin;
}

pub mod ids {
    pub const GPU: u32 = 1;
    pub const CPU: u32 = 2;
}
