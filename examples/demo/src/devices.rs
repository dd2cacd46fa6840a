//! Device discovery and selection.

use crate::registry::{cuda_client, register_backend_factory};
use crate::{canonicalize_platform, names, Device, DeviceKind, Error};

/// Registers the CUDA backend when a driver is found.
pub fn load_cuda_plugin(driver_found: bool) -> Result<(), Error> {
    if driver_found {
        // Registers "cuda" again: see the BUG in `registry::init_backends`.
        register_backend_factory(names::CUDA, cuda_client)?;
    }
    Ok(())
}

/// The GPUs among `devices`.
pub fn gpus(devices: &[Device]) -> Vec<&Device> {
    // BUG(uncanonicalized_platform_comparison): a plugin may report "cuda" or
    // "CUDA" instead of "gpu"; its GPUs are silently left out.
    devices.iter().filter(|d| d.platform() == "gpu").collect()
}

/// Whether devices of `kind` are GPUs.
pub fn kind_is_gpu(kind: DeviceKind) -> bool {
    // BUG(impossible_value_comparison): `DeviceKind::as_str` returns only
    // "cpu" and "cuda", never the alias "gpu": this is always false.
    kind.as_str() == "gpu"
}

/// Whether any device is a GPU.
pub fn has_gpu(devices: &[Device]) -> bool {
    // BUG(non_canonical_platform_literal): canonicalization turns "gpu" into
    // "cuda" or "rocm", so this is never true.
    devices.iter().any(|d| canonicalize_platform(d.platform()) == "gpu")
}

/// Correct: canonicalize first, then compare with canonical names only.
pub fn gpus_fixed(devices: &[Device]) -> Vec<&Device> {
    devices
        .iter()
        .filter(|d| {
            let platform = canonicalize_platform(d.platform());
            matches!(platform.as_str(), "cuda" | "rocm" | "oneapi")
        })
        .collect()
}

/// Whether the first device is the host CPU.
pub fn first_is_cpu(devices: &[Device]) -> bool {
    // Allowed on purpose, with a reason: this finding is not reported.
    // backend-lint: allow(uncanonicalized_platform_comparison) -- the host device always reports "cpu"
    devices.first().is_some_and(|d| d.platform() == "cpu")
}

/// Whether the first device is a TPU.
pub fn first_is_tpu(devices: &[Device]) -> bool {
    // BUG(unused_suppression): the comparison was canonicalized since; the
    // leftover comment would silence the next real finding on this line.
    // backend-lint: allow(uncanonicalized_platform_comparison)
    devices
        .first()
        .is_some_and(|d| canonicalize_platform(d.platform()) == "tpu")
}

/// The CUDA devices.
pub fn cuda_devices(devices: &[Device]) -> Vec<&Device> {
    // BUG(invalid_suppression): a misspelled lint name allows nothing.
    // backend-lint: allow(uncanonicalised_platform_comparison)
    devices
        .iter()
        .filter(|d| canonicalize_platform(d.platform()) == names::CUDA)
        .collect()
}
