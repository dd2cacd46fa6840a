// A second initialization meant to fail, suppressed with a reason.
use std::sync::atomic::{AtomicUsize, Ordering};

static STATE: AtomicUsize = AtomicUsize::new(0);

pub fn set_logger() -> Result<(), ()> {
    match STATE.compare_exchange(0, 1, Ordering::Acquire, Ordering::Relaxed) {
        Ok(_) => Ok(()),
        Err(_) => Err(()),
    }
}

pub fn second_set_is_checked() {
    set_logger().unwrap();
    // backend-lint: allow(initialized_twice) -- the test wants the panic
    set_logger().unwrap();
}
