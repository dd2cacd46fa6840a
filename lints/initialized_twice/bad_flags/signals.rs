use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

static INIT: AtomicBool = AtomicBool::new(false);
static INIT_LOCK: Mutex<()> = Mutex::new(());
static WATCHDOG: AtomicBool = AtomicBool::new(false);
static ARMED: AtomicBool = AtomicBool::new(false);

#[derive(Debug)]
pub enum SignalError {
    MultipleHandlers,
}

impl std::fmt::Display for SignalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a handler is installed already")
    }
}

fn install_os_handler() -> Result<(), SignalError> {
    Ok(())
}

/// Installs the process's signal handler: once.
pub fn set_handler() -> Result<(), SignalError> {
    if !INIT.load(Ordering::Acquire) {
        let _guard = INIT_LOCK.lock().unwrap();
        if !INIT.load(Ordering::Relaxed) {
            install_os_handler()?;
            INIT.store(true, Ordering::Release);
            return Ok(());
        }
    }
    Err(SignalError::MultipleHandlers)
}

pub fn install_stop_handler() -> Result<(), String> {
    set_handler().map_err(|e| e.to_string())
}

pub fn on_reload() -> Result<(), String> {
    set_handler().map_err(|e| e.to_string()) //~ initialized_twice
}

/// Started and stopped: the flag is reset by its pair, a second start after
/// a stop is fine, and a start while running is refused by its caller's
/// protocol, not here.
pub fn start_watchdog() {
    if WATCHDOG.load(Ordering::SeqCst) {
        return;
    }
    WATCHDOG.store(true, Ordering::SeqCst);
}

pub fn stop_watchdog() {
    WATCHDOG.store(false, Ordering::SeqCst);
}

/// Arms the alarm; arming it twice is a bug.
pub fn arm() {
    if ARMED.swap(true, Ordering::SeqCst) {
        panic!("the alarm is armed already");
    }
}
