//! Names kept for old configuration files.

// Same name as `names::DEFAULT_PLATFORM`, another value.
pub const DEFAULT_PLATFORM: &str = "gpu";
