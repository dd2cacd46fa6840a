//! The application's logger, as the `log` crate's docs write one.

use log::{Level, LevelFilter, Metadata, Record};

pub struct StderrLogger {
    pub level: Level,
}

impl log::Log for StderrLogger {
    fn enabled(&self, metadata: &Metadata) -> bool {
        metadata.level() <= self.level
    }

    fn log(&self, record: &Record) {
        if self.enabled(record.metadata()) {
            eprintln!("[{}] {}", record.level(), record.args());
        }
    }

    fn flush(&self) {}
}

static LOGGER: StderrLogger = StderrLogger { level: Level::Info };
static VERBOSE_LOGGER: StderrLogger = StderrLogger {
    level: Level::Trace,
};

/// Install the logger: `log::set_logger` succeeds once per process.
pub fn init_logging(verbose: bool) {
    if verbose {
        log::set_logger(&VERBOSE_LOGGER).expect("logger already set");
        log::set_max_level(LevelFilter::Trace);
    } else {
        log::set_logger(&LOGGER).expect("logger already set"); // TRAP log-t1: the other arm of `if verbose`, never both
        log::set_max_level(LevelFilter::Info);
    }
}

/// A plugin that wants its own logger, unless the host already set one.
pub fn init_plugin_logging() {
    // The documented way to tolerate an existing logger: the error is ignored.
    let logger = Box::new(StderrLogger {
        level: Level::Debug,
    });
    let _ = log::set_boxed_logger(logger); // TRAP log-t3: the `Err` is discarded on purpose
}
