//! The global configuration, as once_cell's README builds one.

use once_cell::sync::{Lazy, OnceCell};
use std::collections::HashMap;

#[derive(Debug)]
pub struct Config {
    pub path: String,
    pub workers: usize,
}

static CONFIG: OnceCell<Config> = OnceCell::new();

static DEFAULTS: Lazy<HashMap<&'static str, usize>> = Lazy::new(|| {
    let mut m = HashMap::new();
    m.insert("workers", 4);
    m
});

/// Load the configuration once; `OnceCell::set` returns `Err` when it already holds one.
pub fn load(path: &str) {
    let workers = DEFAULTS["workers"];
    CONFIG
        .set(Config {
            path: path.to_string(),
            workers,
        })
        .expect("configuration loaded twice");
}

/// Load it unless it is there: `get_or_init` never fails.
pub fn load_or_default() -> &'static Config {
    CONFIG.get_or_init(|| Config {
        path: "default.toml".into(),
        workers: 1,
    })
}

pub fn get() -> &'static Config {
    CONFIG.get().expect("configuration not loaded")
}
