//! Unit tests in a file of their own.

fn is_cuda(dev: &Device) -> bool {
    dev.platform() == "cuda" //~ uncanonicalized_platform_comparison
}
