//! Unit tests, in a file of their own.

use super::*;

fn cpu_device() -> Device {
    let dev = Device::host();
    assert_eq!(dev.platform(), "cpu");
    dev
}

#[test]
fn host_is_not_an_accelerator() {
    assert!(!is_accelerator(&cpu_device()));
}
