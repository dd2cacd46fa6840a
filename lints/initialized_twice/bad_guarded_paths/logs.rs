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

/// A logger builder, as fern's `Dispatch`: `apply` installs it.
pub struct Dispatch {
    level: u8,
}

impl Dispatch {
    pub fn new() -> Dispatch {
        Dispatch { level: 0 }
    }

    pub fn level(mut self, level: u8) -> Dispatch {
        self.level = level;
        self
    }

    pub fn apply(self) -> Result<(), Error> {
        set_logger() //~ initialized_twice
    }
}

/// The builder every logger of the crate starts from.
fn base(level: u8) -> Dispatch {
    Dispatch::new().level(level)
}

pub fn init_console() -> Result<(), Error> {
    base(1).apply()
}

pub fn init_audit() -> Result<(), Error> {
    let audit = base(2);
    audit.apply()
}
