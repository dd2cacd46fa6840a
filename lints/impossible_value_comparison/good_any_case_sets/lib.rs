//! `impossible_value_comparison`: near misses of `bad_any_case_sets/`:
//! comparisons with a spelling the function really returns, a comparison
//! that ignores case, a name that may be any string, and a set naming no
//! platform in any case.

pub enum Accel {
    Cuda,
    Cl,
    Named(String),
}

impl Accel {
    pub fn label(&self) -> &'static str {
        match self {
            Accel::Cuda => "CUDA",
            Accel::Cl => "OpenCL",
            Accel::Named(_) => "other",
        }
    }

    /// Open: a variant hands back its own text.
    pub fn name(&self) -> &str {
        match self {
            Accel::Cuda => "CUDA",
            Accel::Cl => "OpenCL",
            Accel::Named(n) => n,
        }
    }

    pub fn is_nvidia(&self) -> bool {
        self.label() == "CUDA"
    }

    pub fn is_cl(&self) -> bool {
        self.label().eq_ignore_ascii_case("opencl")
    }

    pub fn custom_cuda(&self) -> bool {
        self.name() == "Cuda"
    }

    pub fn cl_family(&self) -> bool {
        self.label().starts_with("Open")
    }
}

pub enum Shade {
    Red,
    Green,
}

impl Shade {
    pub fn word(&self) -> &'static str {
        match self {
            Shade::Red => "RED",
            Shade::Green => "Green",
        }
    }

    pub fn is_blue(&self) -> bool {
        self.word() == "blue"
    }
}
