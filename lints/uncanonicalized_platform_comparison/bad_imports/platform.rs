pub fn canonicalize_platform(name: &str) -> String {
    name.to_ascii_lowercase()
}

// Beside the canonicalizer: no `use` of it here.
pub fn is_cpu(dev: &crate::Device) -> bool {
    dev.platform() == "cpu" //~ uncanonicalized_platform_comparison
}
