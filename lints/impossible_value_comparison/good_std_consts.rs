//! `impossible_value_comparison`: the standard library's target constants
//! compared with names rustc gives, and a crate's own `consts` module.

pub fn library_suffix() -> &'static str {
    match std::env::consts::OS {
        "windows" => "dll",
        "macos" | "ios" => "dylib",
        _ => "so",
    }
}

pub fn is_arm() -> bool {
    std::env::consts::ARCH.starts_with("aarch") || std::env::consts::ARCH == "arm"
}

pub fn is_unix() -> bool {
    std::env::consts::FAMILY == "unix" || std::env::consts::OS.eq_ignore_ascii_case("LINUX")
}

/// A module of the crate's own, with its own `OS`.
mod consts {
    pub const OS: &str = "darwin";
}

pub fn own() -> bool {
    consts::OS == "darwin"
}
