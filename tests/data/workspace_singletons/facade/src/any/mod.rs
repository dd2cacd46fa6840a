//! The facade re-exports the installer, and installs the default drivers
//! once however often it is asked to.
use std::sync::Once;

pub use ws_drivers::install_drivers;

pub fn install_default_drivers() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| install_drivers(&[]).expect("drivers installed already"));
}
