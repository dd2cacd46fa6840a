//! Where the drivers are kept: a process-wide cell set once (sqlx-core's
//! `install_drivers`).
use std::sync::OnceLock;

pub struct Driver {
    pub scheme: &'static str,
}

static DRIVERS: OnceLock<&'static [Driver]> = OnceLock::new();

pub fn install_drivers(drivers: &'static [Driver]) -> Result<(), String> {
    DRIVERS
        .set(drivers)
        .map_err(|_| "drivers already installed".to_string())
}

pub fn installed() -> usize {
    DRIVERS.get().map_or(0, |d| d.len())
}
