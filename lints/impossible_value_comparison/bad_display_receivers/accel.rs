//! Two kinds whose text is closed: the accelerator's `Display` writes
//! what `code` returns, the queue's writes one literal per variant.

use std::fmt;

#[derive(Clone, Copy)]
pub enum Accelerator {
    Host,
    Nvidia,
    Apple,
}

impl Accelerator {
    pub fn code(&self) -> &'static str {
        match self {
            Accelerator::Host => "cpu",
            Accelerator::Nvidia => "cuda",
            Accelerator::Apple => "metal",
        }
    }
}

impl fmt::Display for Accelerator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[derive(Clone, Copy)]
pub enum Queue {
    Compute,
    Copy,
}

impl fmt::Display for Queue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Queue::Compute => write!(f, "cuda"),
            Queue::Copy => write!(f, "cpu"),
        }
    }
}
