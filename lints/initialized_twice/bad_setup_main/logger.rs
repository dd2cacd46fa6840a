use std::sync::OnceLock;

static LEVEL: OnceLock<String> = OnceLock::new();

#[derive(Debug)]
pub struct AlreadySet;

impl std::fmt::Display for AlreadySet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the global logger is already set")
    }
}

pub fn init_global() -> Result<(), AlreadySet> {
    let level = std::env::var("INSTALLER_LOG").unwrap_or_else(|_| "info".to_string());
    LEVEL.set(level).map_err(|_| AlreadySet)
}
