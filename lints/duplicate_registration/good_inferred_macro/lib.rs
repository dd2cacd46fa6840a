//! Kernels registered through the crate's own macro, in candle's and
//! tract's style: a table that refuses a name it already holds.

use std::collections::HashMap;

pub type Kernel = fn(&mut [f32]);

#[derive(Default)]
pub struct KernelTable {
    kernels: HashMap<(&'static str, &'static str), Kernel>,
}

impl KernelTable {
    pub fn add_kernel(&mut self, device: &'static str, name: &'static str, k: Kernel) -> Result<(), String> {
        if self.kernels.contains_key(&(device, name)) {
            return Err(format!("kernel {name} on {device} is already registered"));
        }
        self.kernels.insert((device, name), k);
        Ok(())
    }
}

macro_rules! kernels {
    ($table:expr, $device:literal, $($name:literal => $kernel:path),* $(,)?) => {
        $( $table.add_kernel($device, $name, $kernel).unwrap(); )*
    };
}

mod cpu {
    pub fn relu(_: &mut [f32]) {}
    pub fn gelu(_: &mut [f32]) {}
    pub fn silu(_: &mut [f32]) {}
}

pub fn cpu_kernels() -> KernelTable {
    let mut table = KernelTable::default();
    kernels!(table, "cpu",
        "relu" => cpu::relu,
        "gelu" => cpu::gelu,
        "silu" => cpu::silu,
    );
    table
}

/// One name on two devices: two keys.
pub fn more_kernels(table: &mut KernelTable) {
    kernels!(table, "cuda", "relu" => cpu::relu, "gelu" => cpu::gelu);
    kernels!(table, "metal", "relu" => cpu::relu, "gelu" => cpu::gelu);
}

/// One of two builds.
pub fn fast_kernels(table: &mut KernelTable) {
    #[cfg(feature = "fast")]
    kernels!(table, "rocm", "silu" => cpu::silu);
    #[cfg(not(feature = "fast"))]
    kernels!(table, "rocm", "silu" => cpu::relu);
}
