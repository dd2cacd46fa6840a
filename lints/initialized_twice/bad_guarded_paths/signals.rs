use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

static SHARED: Once = Once::new();
static STOP: AtomicBool = AtomicBool::new(false);
static HANDLER: AtomicBool = AtomicBool::new(false);

#[derive(Debug)]
pub struct MultipleHandlers;

/// Installs the process's signal handler: a second one is refused.
pub fn set_handler() -> Result<(), MultipleHandlers> {
    if HANDLER.swap(true, Ordering::SeqCst) {
        return Err(MultipleHandlers);
    }
    Ok(())
}

/// The stop flag, its handler installed by whoever asks first.
pub fn shared_stop_flag() -> &'static AtomicBool {
    SHARED.call_once(|| {
        set_handler().expect("installing the handler");
    });
    &STOP
}

/// From here on, a signal exits at once.
pub fn drain() {
    set_handler().expect("installing the force-exit handler"); //~ initialized_twice
}
