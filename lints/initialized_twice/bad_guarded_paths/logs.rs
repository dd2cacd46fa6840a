use std::sync::atomic::{AtomicUsize, Ordering};

static STATE: AtomicUsize = AtomicUsize::new(0);

#[derive(Debug)]
pub struct Error;

/// Installs the global logger; fails when one is installed.
pub fn set_logger() -> Result<(), Error> {
    match STATE.compare_exchange(0, 1, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => Ok(()),
        Err(_) => Err(Error),
    }
}

pub fn installed() -> bool {
    STATE.load(Ordering::Acquire) == 1
}

pub fn init_logging() -> Result<(), Error> {
    set_logger()
}

pub fn init_file_logging() -> Result<(), Error> {
    set_logger() //~ initialized_twice
}
