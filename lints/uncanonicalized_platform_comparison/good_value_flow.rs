//! `uncanonicalized_platform_comparison`: near misses of `bad_value_flow.rs`
//! that must stay silent, for this lint and every other one: the same binding
//! forms holding canonical values, other fields, and names shadowed by values
//! that are not raw platforms.

pub struct Device {
    pub id: u32,
    pub name: String,
    pub platform: String,
    pub next: Option<Box<Device>>,
}

impl Device {
    pub fn platform(&self) -> &str {
        &self.platform
    }

    pub fn platform_name(&self) -> Option<&str> {
        Some(&self.platform)
    }
}

pub fn canonicalize_platform(platform: &str) -> String {
    match platform.to_lowercase().as_str() {
        "gpu" => "cuda".to_string(),
        other => other.to_string(),
    }
}

// Destructuring other fields than `platform`: a device's name is not a platform.
pub fn other_fields(dev: &Device) -> bool {
    let Device { name, id, .. } = dev;
    *id == 0 && name == "cuda:0"
}

// The renamed `platform` field, canonicalized under the same name.
pub fn renamed_then_canonicalized(dev: &Device) -> bool {
    let Device { platform: p, .. } = dev;
    let p = canonicalize_platform(p);
    p == "cuda"
}

// A tuple binds pairwise: the raw element is never compared, the canonical
// one is.
pub fn tuple_canonical_side(dev: &Device) -> bool {
    let (raw, p) = (dev.platform(), canonicalize_platform(dev.platform()));
    !raw.is_empty() && p == "rocm"
}

// `let`-`else` on the canonicalized value.
pub fn let_else_canonical(dev: &Device) -> bool {
    let Some(p) = dev.platform_name().map(canonicalize_platform) else {
        return false;
    };
    p == "tpu"
}

// `let`-`else` on the raw value, canonicalized before the comparison.
pub fn let_else_then_canonicalized(dev: &Device) -> bool {
    let Some(raw) = dev.platform_name() else {
        return false;
    };
    let p = canonicalize_platform(raw);
    p == "tpu"
}

// `while let` over canonicalized platforms of a chain of devices.
pub fn first_tpu_in_chain(mut dev: &Device) -> Option<u32> {
    while let Some(p) = dev.platform_name().map(canonicalize_platform) {
        if p == "tpu" {
            return Some(dev.id);
        }
        dev = dev.next.as_deref()?;
    }
    None
}

// A `match` arm binding of a canonicalized value.
pub fn match_arm_canonical(dev: &Device) -> u32 {
    match dev.platform_name().map(canonicalize_platform) {
        Some(p) if p == "cuda" => 2,
        Some(_) => 1,
        None => 0,
    }
}

// Lowercased, then canonicalized: canonical.
pub fn lowercased_then_canonicalized(dev: &Device) -> bool {
    let p = dev.platform().to_lowercase();
    let p = canonicalize_platform(&p);
    p == "cuda"
}

// `&*p` and `.as_ref()` of a canonical value stay canonical.
pub fn reborrowed_canonical(dev: &Device) -> bool {
    let p = canonicalize_platform(dev.platform());
    let q = canonicalize_platform(&dev.platform);
    &*p == "cpu" || q.as_ref() == "cpu"
}

// Properties of the raw string that are not comparisons with a platform.
pub fn raw_properties(dev: &Device) -> bool {
    dev.platform().len() == 3 || dev.platform().is_empty() || dev.platform().starts_with('c')
}

// A closure parameter named like a raw binding shadows it: inside the
// closure, `p` is an element of `names`.
pub fn closure_param_shadows(dev: &Device, names: &[&str]) -> bool {
    let p = dev.platform();
    !p.is_empty() && names.iter().any(|p| *p == "cuda")
}

// A raw binding inside a closure ends with the closure.
pub fn raw_binding_in_closure(dev: &Device, devices: &[Device]) -> bool {
    let total: usize = devices
        .iter()
        .map(|d| {
            let p = d.platform();
            p.len()
        })
        .sum();
    let p = canonicalize_platform(dev.platform());
    total > 0 && p == "metal"
}

// Closures over devices that canonicalize first, by a closure or by the path.
pub fn canonical_device_queries(devices: &[Device]) -> (bool, usize) {
    let any_tpu = devices
        .iter()
        .map(|d| canonicalize_platform(d.platform()))
        .any(|p| p == "tpu");
    let cpus = devices
        .iter()
        .filter(|Device { platform, .. }| canonicalize_platform(platform) == "cpu")
        .count();
    (any_tpu, cpus)
}

// A `for` loop over devices that compares another field.
pub fn count_named(devices: &[Device]) -> usize {
    let mut n = 0;
    for Device { name, .. } in devices {
        if name == "rocm0" {
            n += 1;
        }
    }
    n
}
