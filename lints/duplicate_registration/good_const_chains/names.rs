//! Constants defined as other constants, some going nowhere.

pub enum Kind {
    Cpu,
}

pub const CUDA: &str = "cuda";
pub const DEFAULT_PLATFORM: &str = CUDA;
pub const LOOP_A: &str = LOOP_B;
pub const LOOP_B: &str = LOOP_A;
pub const KIND: Kind = Kind::Cpu;
pub const KIND_NAME: Kind = KIND;
