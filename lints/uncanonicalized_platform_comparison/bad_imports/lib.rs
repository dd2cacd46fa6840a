//! The fix calls the canonicalizer by a name in scope: a `use` added where
//! another file imports it from, the full path in an inline module, its
//! bare name in the module that defines it.

pub mod devices;
pub mod platform;
pub mod pools;

pub struct Device {
    pub platform: String,
}

impl Device {
    pub fn platform(&self) -> &str {
        &self.platform
    }
}
