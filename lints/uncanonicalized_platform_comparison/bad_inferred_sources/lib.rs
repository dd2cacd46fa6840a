//! `uncanonicalized_platform_comparison`: functions of the crate that
//! return a client's raw platform (`platform_of`), and wrappers of them,
//! are sources as the configured ones are: their results compared with
//! platform names before canonicalization, as PJRT plugin loaders do.
//! Analysed as one crate.

mod client;
mod plugins;

pub use client::{Client, client_platform, platform_of};

// The canonicalizer the fixes call: a fix names only what the crate defines.
pub fn canonicalize_platform(platform: &str) -> String {
    platform.to_ascii_lowercase()
}
