//! What an adapter reports about itself, as wgpu-types declares it. No
//! backend name is written here: the file's fields are what is learned.

use crate::backend::Backend;

#[derive(Clone, Debug)]
pub struct AdapterInfo {
    pub name: String,
    pub vendor: u32,
    pub device: u32,
    pub driver: String,
    pub backend: Backend,
}

/// A surface's adapter, one field further from the backend.
pub struct Surface {
    pub adapter: AdapterInfo,
}

/// A backend wrapped on its own.
pub struct Selected(pub Backend);
