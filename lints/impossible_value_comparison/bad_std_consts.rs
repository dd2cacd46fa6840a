//! `impossible_value_comparison`: the standard library's target constants
//! compared with names other tools use. rustc calls macOS `macos`, the
//! 64-bit x86 `x86_64` and 64-bit ARM `aarch64`.

use std::env;

/// Where the plugin loader looks for the shared library.
pub fn library_suffix() -> &'static str {
    match std::env::consts::OS {
        "windows" => "dll",
        "darwin" => "dylib", //~ impossible_value_comparison
        _ => "so",
    }
}

/// The prebuilt kernels are published per architecture.
pub fn kernel_dir() -> String {
    let arch = if env::consts::ARCH == "amd64" { //~ impossible_value_comparison
        "x64"
    } else {
        env::consts::ARCH
    };
    format!("kernels/{arch}")
}

pub fn wants_metal() -> bool {
    matches!(env::consts::OS, "macos" | "MacOS") //~ impossible_value_comparison
}

pub fn is_posix() -> bool {
    std::env::consts::FAMILY == "linux" //~ impossible_value_comparison
}
