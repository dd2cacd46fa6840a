//! A stand-in for a web framework's router (axum's `Router::route` panics on
//! a route given twice): a builder whose method hands itself back and
//! rejects a path it holds already.

use std::collections::HashMap;

pub type Handler = fn() -> &'static str;

pub struct Router {
    routes: HashMap<String, Handler>,
}

impl Router {
    pub fn new() -> Self {
        Router { routes: HashMap::new() }
    }

    pub fn route(mut self, path: &str, handler: Handler) -> Self {
        if self.routes.contains_key(path) {
            panic!("overlapping route `{path}`");
        }
        self.routes.insert(path.to_string(), handler);
        self
    }
}
