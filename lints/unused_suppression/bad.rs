//! `unused_suppression`: directives that silence nothing.

// backend-lint: allow-file(lowering_backend_mismatch) -- nothing is lowered here //~ unused_suppression

pub struct Device {
    pub platform: String,
}

impl Device {
    pub fn platform(&self) -> &str {
        &self.platform
    }
}

pub fn canonicalize_platform(p: &str) -> String {
    p.to_lowercase()
}

pub fn pick(dev: &Device) -> bool {
    // backend-lint: allow(uncanonicalized_platform_comparison) -- fixed since //~ unused_suppression
    canonicalize_platform(dev.platform()) == "cuda"
}

pub fn blank_line_between(dev: &Device) -> bool {
    // backend-lint: allow(uncanonicalized_platform_comparison) -- a blank line follows //~ unused_suppression

    dev.platform() == "cuda" //~ uncanonicalized_platform_comparison
}

pub fn one_of_two(dev: &Device) -> bool {
    dev.platform() == "cuda" // backend-lint: allow(uncanonicalized_platform_comparison, duplicate_registration) -- //~ unused_suppression
}
