use crate::platform::canonicalize_platform;

pub fn pool_name(dev: &crate::Device) -> String {
    canonicalize_platform(dev.platform())
}
