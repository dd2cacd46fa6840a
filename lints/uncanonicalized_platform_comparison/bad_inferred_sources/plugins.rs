//! Plugin loading keyed by platform, from the inferred sources.

use crate::client::{Client, client_platform, platform_of};

pub fn plugin_path(c: &Client) -> &'static str {
    if platform_of(c) == "cuda" { //~ uncanonicalized_platform_comparison
        "libpjrt_cuda.so"
    } else if client_platform(c) == "rocm" { //~ uncanonicalized_platform_comparison
        "libpjrt_rocm.so"
    } else {
        "libpjrt_cpu.so"
    }
}

pub fn cores(c: &Client) -> usize {
    match platform_of(c).as_str() { //~ uncanonicalized_platform_comparison
        "tpu" => 8,
        _ => 1,
    }
}

pub fn is_host(c: &Client) -> bool {
    let platform = client_platform(c);
    platform == "cpu" //~ uncanonicalized_platform_comparison
}

pub fn is_metal(c: &Client) -> bool {
    c.backend_platform() == "metal" //~ uncanonicalized_platform_comparison
}
