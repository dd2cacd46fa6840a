//! `uncanonicalized_platform_comparison`: local bindings of raw platform
//! values. The finding points at the binding where it is compared, not where
//! it was bound.

pub struct Device {
    pub id: u32,
    pub platform: String,
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

// A plain `let` of `platform()`.
pub fn let_binding(dev: &Device) -> bool {
    let p = dev.platform();
    p == "cuda" //~ uncanonicalized_platform_comparison
}

// A `let` of the field, through `&`.
pub fn let_field_ref(dev: &Device) -> bool {
    let platform = &dev.platform;
    platform != "cpu" //~ uncanonicalized_platform_comparison
}

// A binding compared through `*`.
pub fn deref_binding(dev: &Device) -> bool {
    let p = &dev.platform();
    *p == "tpu" //~ uncanonicalized_platform_comparison
}

// `if let Some(p) = dev.platform_name()`: `p` is raw.
pub fn if_let_some(dev: &Device) -> bool {
    if let Some(p) = dev.platform_name() {
        return p == "rocm"; //~ uncanonicalized_platform_comparison
    }
    false
}

// Destructuring the `platform` field of a struct.
pub fn struct_pattern(dev: Device) -> bool {
    let Device { platform, .. } = dev;
    platform == "metal" //~ uncanonicalized_platform_comparison
}

// A tuple `let` binds pairwise: `p` is raw, `n` is not.
pub fn tuple_let(dev: &Device) -> bool {
    let (p, n) = (dev.platform(), 3);
    n > 2 && p == "tpu" //~ uncanonicalized_platform_comparison
}

// Lowercasing keeps a binding raw.
pub fn lowercased_binding(dev: &Device) -> bool {
    let p = dev.platform().to_lowercase();
    p.as_str() == "cuda" //~ uncanonicalized_platform_comparison
}

// `.unwrap_or("cpu")` keeps a binding raw.
pub fn unwrap_or_binding(dev: &Device) -> bool {
    let p = dev.platform_name().unwrap_or("cpu");
    p == "cpu" //~ uncanonicalized_platform_comparison
}

// A binding of a binding.
pub fn rebound(dev: &Device) -> bool {
    let p = dev.platform();
    let q = p;
    q == "cuda" //~ uncanonicalized_platform_comparison
}

// Shadowing the other way round: the last binding is raw again.
pub fn shadowed_back_to_raw(dev: &Device, other: &Device) -> bool {
    let p = canonicalize_platform(other.platform());
    let p = dev.platform();
    p == "cuda" //~ uncanonicalized_platform_comparison
}

// A canonical literal bound with `let` is a canonical value: the raw side is
// still reported.
pub fn raw_with_canonical_binding(dev: &Device) -> bool {
    let wanted = "cuda";
    dev.platform() == wanted //~ uncanonicalized_platform_comparison
}

// A raw binding compared with a canonicalized one.
pub fn raw_binding_with_canonical_binding(dev: &Device, other: &Device) -> bool {
    let mine = dev.platform();
    let theirs = canonicalize_platform(other.platform());
    mine == theirs //~ uncanonicalized_platform_comparison
}

// A binding in a nested block is still followed.
pub fn nested_block(dev: &Device) -> bool {
    let p = dev.platform();
    {
        let n = 1;
        n == 1 && p == "cpu" //~ uncanonicalized_platform_comparison
    }
}
