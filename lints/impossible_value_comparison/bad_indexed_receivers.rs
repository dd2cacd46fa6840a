//! `impossible_value_comparison`: a receiver taken out of a collection of
//! the crate by indexing (`self.devices[id]` on a slab of devices): its
//! type is the `Output` of the collection's `impl Index`.

use std::ops::Index;

#[derive(Clone, Copy)]
pub struct DeviceId(usize);

pub enum Device {
    Dummy,
    Cuda,
    Host,
}

impl Device {
    pub fn name(&self) -> &'static str {
        match self {
            Device::Dummy => "dummy",
            Device::Cuda => "cuda",
            Device::Host => "cpu",
        }
    }
}

pub struct Slab<Id, T> {
    values: Vec<T>,
    ids: Vec<Id>,
}

impl<Id: Copy, T> Index<Id> for Slab<Id, T>
where
    usize: From<Id>,
{
    type Output = T;

    fn index(&self, id: Id) -> &T {
        &self.values[usize::from(id)]
    }
}

impl From<DeviceId> for usize {
    fn from(id: DeviceId) -> usize {
        id.0
    }
}

pub struct Runtime {
    devices: Slab<DeviceId, Device>,
}

impl Runtime {
    // The dummy device says `dummy`: it is tuned after all.
    pub fn needs_tuning(&self, id: DeviceId) -> bool {
        self.devices[id].name() != "Dummy" //~ impossible_value_comparison
    }

    pub fn is_host(&self, id: DeviceId) -> bool {
        self.devices[id].name() == "cpu"
    }
}
