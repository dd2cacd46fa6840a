//! A small job runner that logs with env_logger, as its README shows.

use log::{info, warn};

/// Set up logging from `RUST_LOG`: `env_logger::init` panics when a logger is already set.
pub fn init_logs() {
    env_logger::init();
}

/// Logging for a library user that may have its own logger.
pub fn init_logs_quietly() {
    env_logger::try_init().ok(); // TRAP env_logger-t1: `try_init` with its `Err` discarded by `.ok()`
}

pub fn parse_jobs(text: &str) -> Vec<String> {
    let jobs: Vec<String> = text
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    if jobs.is_empty() {
        warn!("no jobs in {text:?}");
    }
    jobs
}

/// Run the jobs; the runner configures its own log format first.
pub fn run(text: &str) {
    env_logger::Builder::from_default_env()
        .format_target(false)
        .init(); // BUG env_logger-1: main already called `init_logs`: `Builder::init` panics "Builder::init should not be called after logger initialized" (env_logger-0.11.11/src/logger.rs:522)
    for job in parse_jobs(text) {
        info!("running {job}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trims_jobs() {
        init_logs();
        assert_eq!(parse_jobs(" a "), vec!["a"]);
    }

    #[test]
    fn skips_empty_jobs() {
        init_logs(); // BUG env_logger-2: `cargo test` runs the tests as threads of one process: whichever of `trims_jobs` and this test calls `env_logger::init` second panics (env_logger-0.11.11/src/logger.rs:901); one test is no process of its own
        assert_eq!(parse_jobs("a,,b"), vec!["a", "b"]);
    }
}
