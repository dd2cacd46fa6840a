use crate::types::Response;

impl Response {
    /// The struct is declared in another file: `headers` is still a map
    /// field, and a later `insert` overrides a default.
    pub fn finish(&mut self) {
        self.headers.insert("cache-control", "no-store".to_string());
        if self.cached {
            self.headers.insert("cache-control", "max-age=60".to_string());
        }
        self.headers.insert("server", "client/1.0".to_string());
        self.headers.insert("cache-control", "private".to_string());
    }
}
