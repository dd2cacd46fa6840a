//! `uncanonicalized_platform_comparison` with `platforms.check-tests = true`:
//! raw comparisons in test code are reported too.

#[test]
fn cpu_client_reports_its_platform() {
    let client = Client::cpu();
    assert_eq!(client.platform_name().unwrap(), "cpu"); //~ uncanonicalized_platform_comparison
}

#[cfg(test)]
mod tests;

// The canonicalizer the fixes call: a fix names only what the crate defines.
pub fn canonicalize_platform(platform: &str) -> String {
    platform.to_ascii_lowercase()
}
