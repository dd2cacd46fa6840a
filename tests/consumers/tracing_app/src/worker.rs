//! Background workers.

use crate::telemetry;

pub fn spawn_worker(id: u32) {
    telemetry::init(); // BUG tracing-1: main already installed the global subscriber: `init` panics "failed to set global default subscriber" (tracing-subscriber-0.3.23/src/fmt/mod.rs:520; tracing-core-0.1.36/src/dispatcher.rs:330)
    tracing::info!(id, "worker started");
}
