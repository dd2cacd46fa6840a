mod telemetry;
mod worker;

use tracing::subscriber;

/// A tool mode that sets the global default by hand, twice.
fn direct() {
    let first = tracing_subscriber::fmt().finish();
    subscriber::set_global_default(first).expect("default subscriber");
    tracing::info!("direct mode");
    let second = tracing_subscriber::fmt().with_ansi(false).finish();
    subscriber::set_global_default(second).expect("default subscriber"); // BUG tracing-2: the global default was set three lines above: `set_global_default` returns Err(SetGlobalDefaultError) and `expect` panics (tracing-core-0.1.36/src/dispatcher.rs:330)
}

fn main() {
    if std::env::args().any(|a| a == "--direct") {
        return direct();
    }
    telemetry::with_tool_subscriber(|| tracing::info!("tool output"));
    telemetry::with_tool_subscriber(|| tracing::info!("tool output again")); // TRAP tracing-t2: `with_default` is scoped to the closure
    {
        let _guard = telemetry::scoped();
        tracing::info!("scoped");
    }
    let _guard = telemetry::scoped(); // TRAP tracing-t3: `set_default` returns a guard; the previous default comes back when it drops
    drop(_guard);

    telemetry::init();
    telemetry::try_init();
    tracing::info!("started");
    worker::spawn_worker(1);
}
