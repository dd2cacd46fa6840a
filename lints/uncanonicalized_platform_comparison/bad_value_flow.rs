//! `uncanonicalized_platform_comparison`: raw platform values followed through
//! the binding forms `bad_bindings.rs` does not cover: renamed struct fields,
//! `let`-`else`, `while let`, `match` arm bindings, typed and reference
//! patterns, `&*p` and `.as_ref()`, lowercasing under a shadowed name, and
//! closure and `for` parameters over devices.

pub struct Device {
    pub id: u32,
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

// Destructuring the `platform` field under another name.
pub fn renamed_field(dev: &Device) -> bool {
    let Device { platform: p, .. } = dev;
    p == "cuda" //~ uncanonicalized_platform_comparison
}

// A `ref` binding of the field, out of a dereferenced device.
pub fn ref_field(dev: &Device) -> bool {
    let Device { ref platform, .. } = *dev;
    platform.as_str() != "cpu" //~ uncanonicalized_platform_comparison
}

// A renamed field in an `if let` struct pattern.
pub fn if_let_struct(dev: &Device) -> bool {
    if let Device { platform: kind, id: 0, .. } = dev {
        return kind == "tpu"; //~ uncanonicalized_platform_comparison
    }
    false
}

// A tuple whose raw element is the second one.
pub fn tuple_second(dev: &Device) -> bool {
    let (id, p) = (dev.id, dev.platform());
    id == 0 && p == "rocm" //~ uncanonicalized_platform_comparison
}

// `let`-`else`: `p` is raw after the `else`.
pub fn let_else(dev: &Device) -> bool {
    let Some(p) = dev.platform_name() else {
        return false;
    };
    p == "tpu" //~ uncanonicalized_platform_comparison
}

// `while let` over a chain of devices.
pub fn first_tpu_in_chain(mut dev: &Device) -> Option<u32> {
    while let Some(p) = dev.platform_name() {
        if p == "tpu" { //~ uncanonicalized_platform_comparison
            return Some(dev.id);
        }
        dev = dev.next.as_deref()?;
    }
    None
}

// A `match` arm binding of `platform_name()`, compared in the guard.
pub fn match_arm_binding(dev: &Device) -> u32 {
    match dev.platform_name() {
        Some(p) if p == "cuda" => 2, //~ uncanonicalized_platform_comparison
        Some(_) => 1,
        None => 0,
    }
}

// `platform_name()` compared with `Some("..")`: the raw side is the call.
pub fn optional_compared(dev: &Device) -> bool {
    dev.platform_name() == Some("metal") //~ uncanonicalized_platform_comparison
}

// A typed `let`.
pub fn typed_let(dev: &Device) -> bool {
    let p: &str = dev.platform();
    p == "oneapi" //~ uncanonicalized_platform_comparison
}

// `&*p` re-borrows the same string.
pub fn reborrowed(dev: &Device) -> bool {
    let p: String = dev.platform().to_string();
    &*p == "cpu" //~ uncanonicalized_platform_comparison
}

// `match &*p` with string patterns: one finding, on the scrutinee.
pub fn match_reborrowed(dev: &Device) -> u32 {
    let p = dev.platform.clone();
    match &*p { //~ uncanonicalized_platform_comparison
        "cuda" => 2,
        _ => 1,
    }
}

// `.as_ref()` hands back the same string.
pub fn as_ref_binding(dev: &Device) -> bool {
    let p = dev.platform.clone();
    p.as_ref() == "metal" //~ uncanonicalized_platform_comparison
}

// Shadowing a raw binding by its lowercase form: still raw, `"GPU"` becomes
// `"gpu"`, not `"cuda"`.
pub fn shadowed_by_lowercase(dev: &Device) -> bool {
    let p = dev.platform();
    let p = p.to_lowercase();
    p == "cuda" //~ uncanonicalized_platform_comparison
}

// `to_ascii_lowercase()` on the field, bound and compared.
pub fn ascii_lowercase_binding(dev: &Device) -> bool {
    let p = dev.platform.to_ascii_lowercase();
    p != "rocm" //~ uncanonicalized_platform_comparison
}

// An inner block shadows a canonical binding with a raw one: the comparison
// inside the block sees the raw value.
pub fn inner_block_raw(dev: &Device, other: &Device) -> bool {
    let p = canonicalize_platform(other.platform());
    let inner = {
        let p = dev.platform();
        p == "tpu" //~ uncanonicalized_platform_comparison
    };
    inner && p == "tpu"
}

// `if let` shadows a canonical binding with a raw one inside its body.
pub fn if_let_shadows_canonical(dev: &Device, other: &Device) -> bool {
    let p = canonicalize_platform(other.platform());
    if let Some(p) = dev.platform_name() {
        return p == "cpu"; //~ uncanonicalized_platform_comparison
    }
    p == "cpu"
}

// Closures over an iterator of devices, with other adapters than `filter`.
pub fn device_queries(devices: &[Device]) -> (bool, Option<usize>, Option<&Device>) {
    let any_tpu = devices.iter().any(|d| d.platform == "tpu"); //~ uncanonicalized_platform_comparison
    let first_gpu = devices.iter().position(|d| d.platform_name() == Some("cuda")); //~ uncanonicalized_platform_comparison
    let metal = devices.iter().find(|d| "metal" == d.platform()); //~ uncanonicalized_platform_comparison
    (any_tpu, first_gpu, metal)
}

// A closure parameter that destructures the `platform` field.
pub fn cpu_ids(devices: &[Device]) -> Vec<u32> {
    devices
        .iter()
        .filter(|Device { platform, .. }| platform == "cpu") //~ uncanonicalized_platform_comparison
        .map(|d| d.id)
        .collect()
}

// A closure capturing a raw binding from the enclosing function.
pub fn same_platform_count(dev: &Device, names: &[&str]) -> usize {
    let p = dev.platform();
    names.iter().filter(|n| p == **n || p == "cuda").count() //~ uncanonicalized_platform_comparison
}

// A `for` loop that destructures the `platform` field of each device.
pub fn count_rocm(devices: &[Device]) -> usize {
    let mut n = 0;
    for Device { platform, .. } in devices {
        if platform == "rocm" { //~ uncanonicalized_platform_comparison
            n += 1;
        }
    }
    n
}

// Reassigned in straight-line code: the binding now holds the raw platform.
pub fn reassigned(dev: &Device) -> bool {
    let mut p = "cpu";
    p = dev.platform();
    p == "cuda" //~ uncanonicalized_platform_comparison
}
