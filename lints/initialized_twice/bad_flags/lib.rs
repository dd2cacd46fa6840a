// Singletons kept in a flag or a cell on a static, tested and set by the
// function itself: ctrlc's `set_handler` (an `AtomicBool` tested, set on
// success, `Err` after the test), tract's `set_context` (a
// `Mutex<Option<_>>` that `bail!`s once it holds a context), a `swap`.
// Beside them what a second call survives: a lazy initialization, a probe
// done once whose `?` is on the winning side of its exchange, a flag the
// function resets.
mod device;
mod signals;

use std::sync::atomic::{AtomicBool, Ordering};

static PROBED: AtomicBool = AtomicBool::new(false);
static HUGE_PAGES: AtomicBool = AtomicBool::new(false);

fn page_size() -> Option<usize> {
    Some(4096)
}

/// Probes `/proc` once; every call answers.
pub fn memory_stats() -> Option<usize> {
    if let Ok(false) = PROBED.compare_exchange(false, true, Ordering::Relaxed, Ordering::Relaxed) {
        let huge = std::path::Path::new("/sys/kernel/mm/transparent_hugepage").exists();
        if !huge {
            page_size()?;
        }
        HUGE_PAGES.store(huge, Ordering::Relaxed);
    }
    Some(if HUGE_PAGES.load(Ordering::Relaxed) { 2 } else { 1 })
}

pub fn serve() -> Result<(), String> {
    signals::install_stop_handler()?;
    device::install_default().map_err(|e| e.to_string())?;
    let before = memory_stats().unwrap();
    let after = memory_stats().unwrap();
    device::warm_up();
    device::warm_up();
    println!("{before} {after}");
    signals::on_reload()?;
    Ok(())
}

pub fn prepare(plan: &str) -> Result<(), device::Error> {
    device::install_default()?;
    device::set_context(device::Context { name: plan.to_string() })?; //~ initialized_twice
    Ok(())
}

pub fn restart() {
    signals::start_watchdog();
    signals::stop_watchdog();
    signals::start_watchdog();
    signals::arm();
    signals::arm(); //~ initialized_twice
}
