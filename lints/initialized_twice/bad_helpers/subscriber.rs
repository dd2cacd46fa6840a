use std::sync::atomic::{AtomicUsize, Ordering};

static GLOBAL_INIT: AtomicUsize = AtomicUsize::new(0);

#[derive(Debug)]
pub struct SetGlobalDefaultError;

pub fn set_global_default() -> Result<(), SetGlobalDefaultError> {
    if GLOBAL_INIT
        .compare_exchange(0, 1, Ordering::SeqCst, Ordering::SeqCst)
        .is_ok()
    {
        Ok(())
    } else {
        Err(SetGlobalDefaultError)
    }
}

#[derive(Default)]
pub struct SubscriberBuilder {
    target: bool,
}

pub fn fmt() -> SubscriberBuilder {
    SubscriberBuilder::default()
}

impl SubscriberBuilder {
    pub fn with_target(mut self, target: bool) -> SubscriberBuilder {
        self.target = target;
        self
    }

    pub fn try_init(self) -> Result<(), SetGlobalDefaultError> {
        set_global_default()
    }

    pub fn init(self) {
        self.try_init().expect("Unable to install global subscriber")
    }
}
