//! Near misses of `impossible_value_comparison` through `Display`: a
//! value the `Display` really writes; a `Display` that writes more than
//! literals; a type with a second text method that gives anything; two
//! types of one name, the one compared having no closed text. Analysed as
//! one crate.

use std::fmt;

#[derive(Clone, Copy)]
pub enum Accelerator {
    Host,
    Nvidia,
}

impl Accelerator {
    pub fn code(&self) -> &'static str {
        match self {
            Accelerator::Host => "cpu",
            Accelerator::Nvidia => "cuda",
        }
    }

    // A second text method: anything at all.
    pub fn label(&self) -> String {
        format!("{}-0", self.code())
    }
}

impl fmt::Display for Accelerator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

// Writes an ordinal after the name: no closed set.
pub struct Ordinal(pub Accelerator, pub u32);

impl fmt::Display for Ordinal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Accelerator::Host => write!(f, "cpu"),
            Accelerator::Nvidia => write!(f, "cuda:{}", self.1),
        }
    }
}

pub struct Session {
    accelerator: Accelerator,
    ordinal: Ordinal,
}

impl Session {
    pub fn accelerator(&self) -> Accelerator {
        self.accelerator
    }

    pub fn ordinal(&self) -> &Ordinal {
        &self.ordinal
    }

    // A value `Display` writes.
    pub fn on_cuda(&self) -> bool {
        self.accelerator().to_string() == "cuda" && format!("{}", self.accelerator()) != "cpu"
    }

    // `label` is no closed set, whatever `Display` writes.
    pub fn labelled_gpu(&self) -> bool {
        self.accelerator().label() == "gpu"
    }

    // `Ordinal`'s text is not closed.
    pub fn first_gpu(&self) -> bool {
        self.ordinal().to_string() == "cuda:0"
    }

    // `{:?}` is not `Display`.
    pub fn debug_text(&self, name: &str) -> bool {
        format!("{:?}", name) == "gpu"
    }
}

pub mod other {
    // Another `Accelerator`, whose `Display` is not closed.
    pub struct Accelerator(pub String);

    impl std::fmt::Display for Accelerator {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(&self.0)
        }
    }

    pub fn current() -> Accelerator {
        Accelerator("gpu".to_string())
    }

    pub fn is_gpu() -> bool {
        current().to_string() == "gpu"
    }
}
