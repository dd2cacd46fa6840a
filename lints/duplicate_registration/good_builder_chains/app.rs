//! Near misses of builder chains: none of these fails.

use crate::linker::{DefinitionError, Linker};
use crate::router::{Layers, Router};

fn root() -> &'static str {
    "root"
}

fn clock(_: &[u64]) -> u64 {
    0
}

// Two router values: each holds its own `"/"`.
pub fn two_apps() -> (Router, Router) {
    let public = Router::new().route("/", root);
    let admin = Router::new().route("/", root);
    (public, admin)
}

// Two chains made in place in one function.
pub fn two_chains() -> Vec<Router> {
    vec![Router::new().route("/", root), Router::new().route("/", root)]
}

// Keys that differ.
pub fn app() -> Router {
    Router::new().route("/", root).route("/health", root).route("/ready", root)
}

// A builder whose method replaces by design.
pub fn layers() -> Layers {
    Layers::new().layer("auth", root).layer("auth", root)
}

// Shadowing allowed before the redefinition, in the chain itself.
pub fn shadowing() -> Result<(), DefinitionError> {
    Linker::new()
        .allow_shadowing(true)
        .func_wrap("env", "clock", clock)?
        .func_wrap("env", "clock", clock)?;
    Ok(())
}

// Shadowing allowed on the named linker first.
pub fn shadowing_named(linker: &mut Linker) -> Result<(), DefinitionError> {
    linker.allow_shadowing(true);
    linker.func_wrap("env", "clock", clock)?.func_wrap("env", "clock", clock)?;
    Ok(())
}

// Exclusive branches of one chain.
pub fn branches(fast: bool) -> Router {
    let router = Router::new();
    if fast {
        router.route("/", root)
    } else {
        router.route("/", root)
    }
}
