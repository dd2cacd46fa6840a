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

/// A builder that replaces by design: its method rejects nothing.
pub struct Layers {
    layers: HashMap<String, Handler>,
}

impl Layers {
    pub fn new() -> Self {
        Layers { layers: HashMap::new() }
    }

    pub fn layer(mut self, name: &str, handler: Handler) -> Self {
        self.layers.insert(name.to_string(), handler);
        self
    }
}
