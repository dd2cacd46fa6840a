//! A typed platform, and constants of that type whose names are also the
//! names of string constants in `names`.

#[derive(PartialEq, Eq, Clone, Copy)]
pub enum Kind {
    Cpu,
    Cuda,
    Tpu,
}

pub const CUDA: Kind = Kind::Cuda;
pub const TPU: Kind = Kind::Tpu;
