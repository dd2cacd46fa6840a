//! `impossible_value_comparison`: near misses of `bad_display_local/`:
//! locals that hold more than literals (a parameter, a formatted value),
//! and comparisons with values that are really written.

use std::fmt;

#[derive(Clone, Copy)]
pub enum Engine {
    Nv,
    Host,
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = match *self {
            Engine::Nv => "Cuda",
            Engine::Host => "cpu",
        };
        write!(f, "{shown}")
    }
}

pub struct Card {
    index: u32,
    vendor: &'static str,
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = if self.index == 0 { "cuda" } else { self.vendor };
        write!(f, "{}", text)
    }
}

pub struct Named(u8);

impl Named {
    pub fn backend_name(&self, fallback: &str) -> String {
        let name = match self.0 {
            0 => "cuda",
            _ => fallback,
        };
        name.to_string()
    }

    pub fn ordinal(&self) -> String {
        let base = if self.0 == 0 { "cuda" } else { "cpu" };
        format!("{}:{}", base, self.0)
    }
}

pub fn is_nv(engine: Engine) -> bool {
    engine.to_string() == "Cuda"
}

pub fn is_host(engine: &Engine) -> bool {
    engine.to_string().eq_ignore_ascii_case("CPU")
}

pub fn is_rocm(card: &Card) -> bool {
    card.to_string() == "rocm"
}

pub fn first(named: &Named) -> bool {
    named.backend_name("x") == "rocm" || named.ordinal() == "cuda:0"
}

pub fn active_engine() -> Engine {
    Engine::Host
}

/// A name, which `to_string()` hands on unchanged.
pub fn active_name() -> &'static str {
    if cfg!(feature = "gpu") { "rocm" } else { "cpu" }
}

// A call's result passed to `to_string()`: `Display`'s values for the
// enum, the name's own for the string.
pub fn active_is_known() -> bool {
    let engine = active_engine();
    let name = active_name();
    engine.to_string() == "Cuda" || name.to_string() == "rocm"
}
