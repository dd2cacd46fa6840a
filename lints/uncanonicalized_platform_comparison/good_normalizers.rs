//! `uncanonicalized_platform_comparison`: normalizers and values that are
//! compared fine.

/// `default` is the old name of the CPU runtime.
pub fn runtime_for_name(s: &str) -> Option<&'static str> {
    let s = if s == "default" { "cpu" } else { s };
    match s {
        "cpu" | "cuda" | "metal" => Some("ok"),
        _ => None,
    }
}

/// Lowercases, then matches.
pub fn device_index(name: &str) -> Option<u32> {
    match name.to_lowercase().as_str() {
        "cuda" => Some(1),
        "cpu" => Some(0),
        _ => None,
    }
}

/// Groups two platforms: not spellings of one.
pub fn is_device(s: &str) -> bool {
    match s {
        "cuda" | "rocm" => true,
        _ => false,
    }
}

/// One spelling per name: an exact parser normalizes nothing.
pub fn exact(s: &str) -> Option<u8> {
    match s {
        "cpu" => Some(0),
        "cuda" => Some(1),
        _ => None,
    }
}

/// Compared after normalizing: the new binding is the normalizer's output.
pub fn after(name: &str) -> bool {
    let name = runtime_for_name(name).unwrap_or("cpu");
    name == "cpu"
}

/// A spelling the normalizer takes as it is (`metal` has no alias).
pub fn untouched(name: &str) -> bool {
    runtime_for_name(name).is_some() && name == "metal"
}

/// Compared ignoring case, where the normalizer only folds the case.
pub fn ignoring_case(name: &str) -> bool {
    device_index(name).is_some() && name.eq_ignore_ascii_case("cuda")
}

/// A group and an exact parser.
pub fn grouped(name: &str) -> bool {
    is_device(name) && exact(name).is_some() && name == "cuda"
}

/// Handed to a normalizer in one function, compared in another.
pub fn handed(name: &str) -> bool {
    runtime_for_name(name).is_some()
}

pub fn compared(name: &str) -> bool {
    name == "cpu"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_cpu() {
        let name = "default";
        assert!(runtime_for_name(name).is_some() && name != "cpu");
    }
}

/// Gives the name in its one spelling.
pub fn device_name(s: &str) -> String {
    match s.to_lowercase().as_str() {
        "gpu" | "cuda" => "cuda".to_string(),
        other => other.to_string(),
    }
}

pub struct Opts {
    pub device: String,
}

impl Opts {
    /// The field holds the normalized name once this ran.
    pub fn normalize(&mut self) {
        self.device = device_name(&self.device);
    }

    pub fn is_cuda(&self) -> bool {
        self.device == "cuda"
    }
}

pub struct Flags {
    pub device: String,
}

pub struct Other {
    pub device: String,
}

pub fn flags(f: &Flags) -> String {
    device_name(&f.device)
}

/// A field of the same name on another type.
pub fn other(o: &Other) -> bool {
    o.device == "cuda"
}

/// Lowercased before comparing, as the normalizer does.
pub fn lowered(name: &str) -> bool {
    device_index(name).is_some() && name.to_lowercase() == "cuda"
}
