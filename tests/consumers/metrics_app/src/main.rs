use metrics_app::{init_metrics, ExporterBuilder, PrintRecorder};

fn handle_request() {
    metrics::counter!("requests").increment(1);
}

mod jobs {
    /// The background jobs, which set up metrics "in case main did not".
    pub fn spawn_jobs() {
        metrics_app::init_metrics(); // BUG metrics-1: main installed the recorder: `set_global_recorder` returns Err(SetRecorderError) and `expect` panics (metrics-0.24.6/src/recorder/cell.rs:52)
        metrics::counter!("jobs").increment(1);
    }
}

fn main() {
    // In tests and tools, a recorder scoped to a closure or a guard: the
    // previous one comes back when it ends, nothing global is set.
    let local = PrintRecorder {
        prefix: "local.".into(),
    };
    metrics::with_local_recorder(&local, handle_request);
    metrics::with_local_recorder(&local, handle_request); // TRAP metrics-t1: a scoped recorder, restored when the closure returns
    {
        let _guard = metrics::set_default_local_recorder(&local);
        handle_request();
    }
    let _guard = metrics::set_default_local_recorder(&local); // TRAP metrics-t2: a guard that restores the previous recorder on drop
    drop(_guard);

    if std::env::var_os("METRICS_PREFIX").is_some() {
        ExporterBuilder::new()
            .with_prefix("custom.")
            .install()
            .expect("metrics");
    } else {
        init_metrics(); // TRAP metrics-t3: the other arm of the `if`, never both
    }
    let _ = metrics::set_global_recorder(PrintRecorder::default()); // TRAP metrics-t4: the `Err` is discarded on purpose
    handle_request();
    jobs::spawn_jobs();
}
