//! Normalizers compared with what they can give: no finding.

pub enum Backend {
    Cuda,
    Metal,
}

impl Backend {
    pub fn as_str(&self) -> &'static str {
        match self {
            Backend::Cuda => "Cuda",
            Backend::Metal => "Metal",
        }
    }
}

// `"Cuda"` lowercased is `"cuda"`, a value it gives.
pub fn is_cuda(b: &Backend) -> bool {
    b.as_str().to_lowercase() == "cuda" || b.as_str().trim() == "Metal"
}

// A lowercase literal, a case-blind comparison, a digit-only part.
pub fn parse(arg: &str) -> u32 {
    let norm = arg.to_lowercase();
    if norm.starts_with("gfx11") || norm.eq_ignore_ascii_case("GFX94") || norm.contains("90") {
        1
    } else {
        0
    }
}

// A mutable local may be changed after it was normalized.
pub fn suffixed(arg: &str) -> bool {
    let mut s = arg.to_lowercase();
    s.push_str("X");
    s == "gfxX"
}

// Shadowed by a value nothing normalized.
pub fn shadowed(arg: &str, raw: &str) -> bool {
    let s = arg.to_lowercase();
    let s = raw;
    s == "Linux"
}

// A replacement that can make the replaced string again, or none.
pub fn replaced(s: &str) -> bool {
    s.replace("ab", "a") == "ab"
        || s.replace("ab", "") == "ab"
        || s.replace("::", ":").contains("::")
        || s.replacen("darwin", "macos", 1) == "darwin"
}

// What a later step puts back: lowercasing after a replacement,
// an uppercase replacement after lowercasing.
pub fn later(s: &str) -> bool {
    s.replace("X", "y").to_lowercase() == "x"
        || s.to_lowercase().replace("-", "X") == "aXb"
        || s.trim().replace("x", " ") == " a "
}

// A part inside may hold whitespace; an edge of `trim_start` may not end so.
pub fn trimmed(s: &str) -> bool {
    s.trim().contains(" x") || s.trim_start().ends_with(" ") || s.to_lowercase().is_empty()
}

// A `cfg`-exclusive producer: lowercased on one target only.
pub fn os(triple: &str) -> bool {
    #[cfg(not(unix))]
    let os = triple.to_string();
    #[cfg(unix)]
    let os = triple.to_lowercase();
    os == "Linux"
}

// `assert_ne!` states the impossibility on purpose; tests are skipped.
pub fn checked(s: &str) {
    assert_ne!(s.to_lowercase(), "CUDA");
}

#[cfg(test)]
mod tests {
    #[test]
    fn lowered() {
        assert!("Cuda".to_lowercase() != "Cuda");
    }
}

// leptos_config's shape: the uppercase spellings are redundant beside the
// lowercase ones of the same arm, not dead arms.
pub fn ws_from_str(input: &str) -> u8 {
    let sanitized = input.to_lowercase();
    match sanitized.as_ref() {
        "ws" | "WS" => 1,
        "wss" | "WSS" => 2,
        _ => 0,
    }
}

// The same in a list.
pub fn truthy(input: &str) -> bool {
    ["true", "TRUE", "1"].contains(&input.trim().to_lowercase().as_str())
}
