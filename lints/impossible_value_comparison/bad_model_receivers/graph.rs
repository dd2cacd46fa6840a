//! Devices held in a field, and one made here: no type is written where
//! `name` is called.

use crate::device::Device;

pub struct Graph {
    devices: Vec<Device>,
}

impl Graph {
    // An index into a field.
    pub fn is_gpu(&self, i: usize) -> bool {
        self.devices[i].kind().name() == "gpu" //~ impossible_value_comparison
    }

    // A local of unwritten type, from a constructor and a method.
    pub fn default_is_rocm() -> bool {
        let device = Device::new();
        let kind = device.kind();
        kind.name() == "rocm" //~ impossible_value_comparison
    }
}
