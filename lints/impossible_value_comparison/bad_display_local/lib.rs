//! `impossible_value_comparison`: a `Display` (or a name function) that
//! picks its text into a local first and then writes or returns the
//! local: the values are still the literals the local was given.

use std::fmt;

#[derive(Clone, Copy)]
pub enum Engine {
    Nv,
    Amd,
    Host,
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = match *self {
            Engine::Nv => "Cuda",
            Engine::Amd => "Rocm",
            Engine::Host => "cpu",
        };
        write!(f, "{}", shown)
    }
}

#[derive(Clone, Copy)]
pub enum Slot {
    Main,
    Spare,
}

impl fmt::Display for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = if matches!(self, Slot::Main) { "metal" } else { "cpu" };
        f.write_str(s)
    }
}

pub struct Target(u8);

impl Target {
    pub fn backend_name(&self) -> String {
        let name = match self.0 {
            0 => "cuda",
            1 => "rocm",
            _ => "cpu",
        };
        name.to_string()
    }
}

pub fn is_gpu(engine: Engine) -> bool {
    matches!(engine.to_string().as_str(), "CUDA" | "Rocm") //~ impossible_value_comparison
}

pub fn is_host(engine: &Engine) -> bool {
    engine.to_string() != "Cpu" //~ impossible_value_comparison
}

pub fn main_is_gpu(slot: Slot) -> bool {
    slot.to_string() == "gpu" //~ impossible_value_comparison
}

pub fn on_tpu(target: &Target) -> bool {
    target.backend_name() == "tpu" //~ impossible_value_comparison
}

/// The engine in use: a value of the enum, which `Display` writes.
pub fn active_engine() -> Engine {
    Engine::Nv
}

// A local holding a call's result, written by `to_string()`: the values
// are `Display`'s, whatever the call's type is written as.
pub fn active_is_cuda() -> bool {
    let engine = active_engine();
    engine.to_string() == "CUDA" //~ impossible_value_comparison
}

pub fn engines() -> Vec<Engine> {
    vec![Engine::Nv, Engine::Host]
}

// `format!("{}", e)` writes what `e.to_string()` does, viewed with
// `as_str()` too; in a body naming nothing else, for each of a list.
pub fn env_names() -> Vec<&'static str> {
    let mut names = Vec::new();
    for engine in &engines() {
        names.push(match format!("{}", engine).as_str() {
            "Cuda" => "CUDA_VISIBLE_DEVICES",
            "ROCM" => "HIP_VISIBLE_DEVICES", //~ impossible_value_comparison
            _ => "",
        });
    }
    names
}

// A body naming no platform: `format` is how it calls the `Display`, and
// the fast path reads it for that word as it does for `to_string`.
pub fn any_nv() -> bool {
    for engine in &engines() {
        if format!("{}", engine) == "NV" { //~ impossible_value_comparison
            return true;
        }
    }
    false
}
