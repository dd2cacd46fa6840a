//! `uncanonicalized_platform_comparison`: raw platform values behind
//! `Option`/`Result` and their adapters, conversions that keep them raw, and
//! lists of names that are searched for one.

// `platform_name()` returns `Option<&str>`: `Some("..")` patterns compare
// the raw string inside.
pub fn blas_for(dev: &Device) -> &'static str {
    match dev.platform_name() { //~ uncanonicalized_platform_comparison
        Some("cuda") => "cublas",
        Some("rocm") => "rocblas",
        _ => "xla_dot",
    }
}

// `.ok()` keeps the string as it is, in `match` and `matches!`.
pub fn is_gpu(dev: &Device) -> bool {
    matches!(dev.platform().ok(), Some("gpu")) //~ uncanonicalized_platform_comparison
}

pub fn threads_for(dev: &Device) -> usize {
    match dev.platform().ok() { //~ uncanonicalized_platform_comparison
        Some("cpu") => num_cpus(),
        Some(_) | None => 1,
    }
}

pub fn is_cuda_result(dev: &Device) -> bool {
    dev.platform().ok() == Some("cuda") //~ uncanonicalized_platform_comparison
}

// `Ok(..)` patterns on a `Result` of the raw string.
pub fn is_tpu(dev: &Device) -> bool {
    matches!(dev.platform(), Ok("tpu")) //~ uncanonicalized_platform_comparison
}

// Conversions that keep it raw: `.into_owned()` of a `Cow`, uppercasing (as
// little a canonicalization as lowercasing), `.await?`.
pub fn owned(dev: &Device) -> bool {
    dev.platform().into_owned() == "cuda" //~ uncanonicalized_platform_comparison
}

pub fn shouted(dev: &Device) -> bool {
    dev.platform().to_uppercase() == "CUDA" //~ uncanonicalized_platform_comparison
}

pub async fn remote(client: &RemoteClient) -> Result<bool, Error> {
    Ok(client.platform_name().await? == "rocm") //~ uncanonicalized_platform_comparison
}

// A literal list searched for the raw value.
pub fn is_nvidia_or_amd(dev: &Device) -> bool {
    ["cuda", "rocm"].contains(&dev.platform()) //~ uncanonicalized_platform_comparison
}

pub fn is_accelerator(dev: &Device) -> bool {
    let platform = dev.platform();
    vec!["gpu", "tpu"].contains(&platform) //~ uncanonicalized_platform_comparison
}

// Closures over the raw value inside an `Option` or a `Result`.
pub fn maybe_cuda(dev: &Device) -> bool {
    dev.platform_name().map(|p| p == "cuda").unwrap_or(false) //~ uncanonicalized_platform_comparison
}

pub fn some_rocm(dev: &Device) -> bool {
    dev.platform_name()
        .is_some_and(|p| p.eq_ignore_ascii_case("rocm")) //~ uncanonicalized_platform_comparison
}

pub fn ok_cpu(dev: &Device) -> bool {
    dev.platform().is_ok_and(|p| p == "cpu") //~ uncanonicalized_platform_comparison
}

// The canonicalizer the fixes call: a fix names only what the crate defines.
pub fn canonicalize_platform(platform: &str) -> String {
    platform.to_ascii_lowercase()
}
