//! Two files for the oracle's own test: calls, a method, a re-export, a
//! const, a generic trait call, an operator overload, and text outside ASCII before names so a
//! column in UTF-16 units differs from one in bytes.

mod util;

pub use util::Registry;
use util::{describe, helper};

pub const GREETING: &str = "héllo wörld";

pub fn run() -> usize {
    let label = "ünïcödé 𝓤"; let n = helper(label.len());
    let mut r = Registry::new();
    r.add(GREETING);
    let _ = describe(&r); n + r.len() + util::helper(2) + (Registry::new() + 1)
}
