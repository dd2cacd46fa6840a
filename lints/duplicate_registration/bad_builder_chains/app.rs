//! Builders chained as their README examples chain them, with a key given
//! twice in one chain.

use crate::linker::{DefinitionError, Linker};
use crate::router::Router;

fn root() -> &'static str {
    "root"
}

fn root_v2() -> &'static str {
    "root v2"
}

fn clock(_: &[u64]) -> u64 {
    0
}

// One router value: the second `"/"` panics when the app is built.
pub fn app() -> Router {
    Router::new()
        .route("/", root)
        .route("/health", root)
        .route("/", root_v2) //~ duplicate_registration
}

// The chain starts at a named router, and goes on after it is handed back.
pub fn more(mut router: Router) -> Router {
    router = router.route("/users", root);
    router.route("/users", root_v2) //~ duplicate_registration
}

// `?` between the links: each `func_wrap` hands the linker back.
pub fn host(linker: &mut Linker) -> Result<(), DefinitionError> {
    linker
        .func_wrap("env", "clock", clock)?
        .func_wrap("env", "clock", clock)?; //~ duplicate_registration
    Ok(())
}

// A chain on a linker made in place.
pub fn fresh() -> Result<(), DefinitionError> {
    Linker::new()
        .func_wrap("wasi", "now", clock)?
        .func_wrap("wasi", "now", clock)?; //~ duplicate_registration
    Ok(())
}
