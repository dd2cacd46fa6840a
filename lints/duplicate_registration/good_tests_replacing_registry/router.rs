use std::collections::HashMap;

pub type Handler = fn() -> u16;

#[derive(Debug)]
pub struct BadPath(pub String);

#[derive(Default)]
pub struct Router {
    routes: HashMap<String, Handler>,
}

impl Router {
    /// Routes `path` to `handler`, replacing any handler it had.
    pub fn register_route(&mut self, path: &str, handler: Handler) -> Result<(), BadPath> {
        if !path.starts_with('/') {
            return Err(BadPath(path.to_string()));
        }
        self.routes.insert(path.to_string(), handler);
        Ok(())
    }

    pub fn call(&self, path: &str) -> Option<u16> {
        self.routes.get(path).map(|h| h())
    }
}
