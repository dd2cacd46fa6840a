//! `impossible_value_comparison`: `format!("{}", x)` in a body that names
//! nothing else the fast path looks for.

use std::fmt;

#[derive(Clone, Copy)]
pub enum Backend {
    Cpu,
    Cuda,
    OpenCl,
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let text = match *self {
            Backend::OpenCl => "OpenCL",
            Backend::Cuda => "Cuda",
            Backend::Cpu => "CPU",
        };
        write!(f, "{}", text)
    }
}

pub fn available() -> Vec<Backend> {
    vec![Backend::Cpu]
}

pub fn has_opencl() -> bool {
    let all = available();
    for backend in &all {
        if format!("{}", backend) == "OPENCL" { //~ impossible_value_comparison
            return true;
        }
    }
    false
}
