//! Telemetry setup, as tracing-subscriber's README shows it.

use tracing::subscriber;
use tracing_subscriber::fmt;

/// Install the global subscriber; `init` panics when one is already set.
pub fn init() {
    tracing_subscriber::fmt()
        .with_target(false)
        .with_max_level(tracing::Level::INFO)
        .init();
}

/// For embedders: keep theirs when they have one.
pub fn try_init() {
    let _ = tracing_subscriber::fmt().compact().try_init(); // TRAP tracing-t1: `try_init` with the `Err` discarded on purpose
}

/// Tools print with their own subscriber for the duration of one call.
pub fn with_tool_subscriber<T>(f: impl FnOnce() -> T) -> T {
    let tool = fmt().without_time().finish();
    subscriber::with_default(tool, f)
}

/// The same, with a guard that restores the previous default when dropped.
pub fn scoped() -> tracing::subscriber::DefaultGuard {
    subscriber::set_default(fmt().pretty().finish())
}
