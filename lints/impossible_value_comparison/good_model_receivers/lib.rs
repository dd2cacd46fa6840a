//! Two types named `Kind`: the device's, whose `name` gives only platform
//! names, and a team's, whose `name` gives anything. A call the model
//! resolves to the team's says nothing of the device's set. Analysed as
//! one crate.

pub mod device {
    pub enum Kind {
        Cuda,
        Metal,
    }

    impl Kind {
        pub fn name(&self) -> &'static str {
            match self {
                Kind::Cuda => "cuda",
                Kind::Metal => "metal",
            }
        }
    }
}

pub mod team {
    pub struct Kind {
        pub label: String,
    }

    impl Kind {
        pub fn name(&self) -> &str {
            &self.label
        }
    }

    pub fn lead() -> Kind {
        Kind {
            label: "gpu".to_string(),
        }
    }
}

use team::Kind;

// `Kind` is the team's here: its `name` may well be "gpu".
pub fn is_gpu_team(kind: &Kind) -> bool {
    kind.name() == "gpu"
}

// The same through a return type.
pub fn lead_is_gpu_team() -> bool {
    team::lead().name() == "gpu"
}

// The device's, for contrast: a value it gives.
pub fn is_cuda(kind: &device::Kind) -> bool {
    kind.name() == "cuda"
}
