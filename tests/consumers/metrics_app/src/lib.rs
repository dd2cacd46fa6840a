//! A small exporter, written the way metrics' exporters are: a builder whose
//! `install` sets the global recorder.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use metrics::{
    Counter, CounterFn, Gauge, Histogram, Key, KeyName, Metadata, Recorder, SharedString, Unit,
};

#[derive(Debug, Default)]
pub struct Total(AtomicU64);

impl CounterFn for Total {
    fn increment(&self, value: u64) {
        self.0.fetch_add(value, Ordering::Relaxed);
    }
    fn absolute(&self, value: u64) {
        self.0.store(value, Ordering::Relaxed);
    }
}

#[derive(Debug, Default)]
pub struct PrintRecorder {
    pub prefix: String,
}

impl Recorder for PrintRecorder {
    fn describe_counter(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn describe_gauge(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn describe_histogram(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn register_counter(&self, key: &Key, _: &Metadata<'_>) -> Counter {
        println!("{}counter {}", self.prefix, key.name());
        Counter::from_arc(Arc::new(Total::default()))
    }
    fn register_gauge(&self, _: &Key, _: &Metadata<'_>) -> Gauge {
        Gauge::noop()
    }
    fn register_histogram(&self, _: &Key, _: &Metadata<'_>) -> Histogram {
        Histogram::noop()
    }
}

#[derive(Default)]
pub struct ExporterBuilder {
    prefix: String,
}

#[derive(Debug)]
pub struct InstallError;

impl ExporterBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with_prefix(mut self, prefix: &str) -> Self {
        self.prefix = prefix.to_string();
        self
    }

    pub fn build(self) -> PrintRecorder {
        PrintRecorder {
            prefix: self.prefix,
        }
    }

    /// Build the recorder and install it globally: once per process.
    pub fn install(self) -> Result<(), InstallError> {
        metrics::set_global_recorder(self.build()).map_err(|_| InstallError)
    }
}

/// The application's own helper around the exporter.
pub fn init_metrics() {
    ExporterBuilder::new()
        .with_prefix("app.")
        .install()
        .expect("failed to install the metrics exporter");
}
