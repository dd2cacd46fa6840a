//! `impossible_value_comparison`: a value set whose platform names are
//! written in upper or mixed case (`"CUDA"`, `"ROCm"`) is still a closed
//! set: a comparison with a spelling it never returns cannot hold.

pub enum Accel {
    Cuda,
    Rocm,
    Cl,
    Host,
}

impl Accel {
    /// The name printed in logs.
    pub fn label(&self) -> &'static str {
        match self {
            Accel::Cuda => "CUDA",
            Accel::Rocm => "ROCm",
            Accel::Cl => "OPENCL",
            Accel::Host => "Host",
        }
    }

    pub fn is_nvidia(&self) -> bool {
        self.label() == "Cuda" //~ impossible_value_comparison
    }

    pub fn uses_vector_loads(&self) -> bool {
        matches!(self.label(), "CUDA" | "OpenCL") //~ impossible_value_comparison
    }

    pub fn is_amd(&self) -> bool {
        self.label().starts_with("rocm") //~ impossible_value_comparison
    }
}

pub fn pick(accel: &Accel) -> u32 {
    match accel.label() {
        "CUDA" => 1,
        "Opencl" => 2, //~ impossible_value_comparison
        _ => 0,
    }
}
