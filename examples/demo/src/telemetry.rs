//! The runtime's logger, installed once per process by an init helper.

use std::sync::OnceLock;

static LOGGER: OnceLock<String> = OnceLock::new();

fn init_logging() {
    LOGGER
        .set(String::from("demo"))
        .expect("the logger is installed once");
}

fn start_backends() {
    init_logging();
}

/// BUG(initialized_twice): `start_backends` installs the logger again, and
/// the second `set` fails, so `expect` panics.
pub fn start() {
    init_logging();
    start_backends();
}
