//! `impossible_value_comparison`: near misses of `bad_derived_debug.rs`:
//! names a derive really writes, a variant with fields (its fields are
//! written too), and a `Debug` written by hand.

use std::fmt;

#[derive(Clone, Copy, Debug)]
pub enum DeviceType {
    Cpu,
    Gpu,
}

#[derive(Clone, Copy, Debug)]
pub enum Placement {
    Cpu,
    Cuda(usize),
}

#[derive(Clone, Copy)]
pub enum Named {
    Cpu,
    Gpu,
}

impl fmt::Debug for Named {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Named::Cpu => "CPU",
            Named::Gpu => "GPU",
        })
    }
}

pub fn is_gpu(kind: DeviceType) -> bool {
    format!("{:?}", kind) == "Gpu"
}

pub fn on_first_cuda(p: Placement) -> bool {
    format!("{p:?}") == "Cuda(0)"
}

pub fn named_gpu(n: Named) -> bool {
    format!("{:?}", n) == "GPU"
}

/// One word of a platform among others: a resource limit, no device kind.
#[derive(Clone, Copy, Debug)]
pub enum Resource {
    Cpu,
    Stack,
    Nofile,
}

pub fn limits_cpu(r: Resource) -> bool {
    format!("{r:?}") == "CPU"
}
