use std::path::PathBuf;
use std::sync::OnceLock;

static APP_DIR: OnceLock<PathBuf> = OnceLock::new();

/// Resolves the app's folder once per process.
pub fn resolve() {
    APP_DIR
        .set(std::env::current_dir().unwrap_or_default())
        .expect("the app folder is resolved once");
}
