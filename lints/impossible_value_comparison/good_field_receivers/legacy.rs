//! Another `Config`, whose `backend` is a name.

pub struct Config {
    pub backend: String,
}

impl Config {
    pub fn is_opengl(&self) -> bool {
        self.backend.as_str() == "opengl"
    }
}
