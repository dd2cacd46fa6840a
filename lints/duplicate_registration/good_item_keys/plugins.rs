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

/// Types made known for reflection: registering one again does nothing.
pub struct TypeRegistry;

impl TypeRegistry {
    pub fn register_type<T: 'static>(&mut self) -> &mut Self {
        self
    }
}
