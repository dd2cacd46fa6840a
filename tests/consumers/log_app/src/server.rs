//! The server, which (wrongly) sets up logging again when it starts.

use crate::logging;

pub fn start(port: u16) {
    logging::init_logging(false); // BUG log-1: second `log::set_logger` returns Err(SetLoggerError) and `expect` panics (log-0.4.35/src/lib.rs:1540)
    log::info!("listening on {port}");
}
