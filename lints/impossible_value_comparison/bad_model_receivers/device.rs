//! A device and its kind, whose `name` says `"cpu"`, `"cuda"` or `"metal"`.

#[derive(Clone, Copy)]
pub enum DeviceKind {
    Cpu,
    Cuda,
    Metal,
}

impl DeviceKind {
    pub fn name(&self) -> &'static str {
        match self {
            DeviceKind::Cpu => "cpu",
            DeviceKind::Cuda => "cuda",
            DeviceKind::Metal => "metal",
        }
    }
}

pub struct Error;

pub struct Device {
    kind: DeviceKind,
}

impl Device {
    pub fn new() -> Device {
        Device {
            kind: DeviceKind::Cpu,
        }
    }

    pub fn kind(&self) -> DeviceKind {
        self.kind
    }

    pub fn try_kind(&self) -> Result<DeviceKind, Error> {
        Ok(self.kind)
    }

    // A method's return type, through `?`.
    pub fn supports_f64(&self) -> Result<bool, Error> {
        Ok(self.try_kind()?.name() != "gpu") //~ impossible_value_comparison
    }
}

pub fn current_kind() -> DeviceKind {
    DeviceKind::Cuda
}

// A free function's return type.
pub fn on_apple_gpu() -> bool {
    current_kind().name() == "mps" //~ impossible_value_comparison
}

/// Another `DeviceKind`, whose `name` also says `"opengl"`: a call the
/// model ties to the one above cannot give it.
pub mod legacy {
    pub enum DeviceKind {
        Cuda,
        OpenGl,
    }

    impl DeviceKind {
        pub fn name(&self) -> &'static str {
            match self {
                DeviceKind::Cuda => "cuda",
                DeviceKind::OpenGl => "opengl",
            }
        }
    }
}

// A type name two enums share: the parameter's is this module's.
pub fn is_opengl(kind: DeviceKind) -> bool {
    kind.name() == "opengl" //~ impossible_value_comparison
}
