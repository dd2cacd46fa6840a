//! `uncanonicalized_platform_comparison`: raw comparisons written inside macro
//! invocations whose arguments are Rust code: `assert!`, `debug_assert!`, the
//! formatting macros, `vec!`, logging macros and the crate's own
//! `macro_rules!`. The finding points at the raw side in the source text, not
//! at the invocation. (`matches!` and the `assert_eq!` family are in
//! `bad_match_and_macros.rs`.)

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

macro_rules! check {
    ($cond:expr) => {
        if !$cond {
            panic!("check failed: {}", stringify!($cond));
        }
    };
}

macro_rules! on_accelerator {
    ($($body:tt)*) => {
        $($body)*
    };
}

// `assert!` and `debug_assert!` on a comparison.
pub fn assert_cpu(dev: &Device) {
    assert!(dev.platform() == "cpu"); //~ uncanonicalized_platform_comparison
    debug_assert!(dev.platform != "tpu"); //~ uncanonicalized_platform_comparison
}

// The message arguments of `assert!` are not comparisons: one finding.
pub fn assert_with_message(dev: &Device) {
    assert!(dev.platform() == "cuda", "device {} is on {}", dev.id, dev.platform()); //~ uncanonicalized_platform_comparison
}

// A raw binding made outside the macro, compared inside it.
pub fn assert_binding(dev: &Device) {
    let p = dev.platform();
    assert!(p == "rocm" || p == "cuda"); //~ uncanonicalized_platform_comparison //~ uncanonicalized_platform_comparison
}

// The arguments of `println!` and `format!` after the format string.
pub fn report(dev: &Device) -> String {
    println!("{}", dev.platform() == "gpu"); //~ uncanonicalized_platform_comparison
    format!("on cuda: {}", dev.platform_name() == Some("cuda")) //~ uncanonicalized_platform_comparison
}

// `write!` to a formatter, and `eprintln!` with a named argument.
pub fn describe(dev: &Device, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
    eprintln!("tpu: {is_tpu}", is_tpu = dev.platform() == "tpu"); //~ uncanonicalized_platform_comparison
    write!(f, "{} {}", dev.id, dev.platform != "cpu") //~ uncanonicalized_platform_comparison
}

// A logging macro reached by a path, with a `key = value` field.
pub fn log_choice(dev: &Device) {
    tracing::debug!(gpu = dev.platform() == "gpu", "picked a kernel"); //~ uncanonicalized_platform_comparison
}

// Elements of `vec![..]`, two on one line.
pub fn flags(dev: &Device) -> Vec<bool> {
    vec![dev.platform() == "gpu", dev.platform() == "cpu"] //~ uncanonicalized_platform_comparison //~ uncanonicalized_platform_comparison
}

// The repeated element of `vec![x; n]`.
pub fn per_device_flags(devices: &[Device]) -> Vec<bool> {
    let first = &devices[0];
    vec![first.platform() == "metal"; devices.len()] //~ uncanonicalized_platform_comparison
}

// A user macro whose argument is an expression, with each kind of delimiter.
pub fn user_checks(dev: &Device) {
    check!(dev.platform() == "gpu"); //~ uncanonicalized_platform_comparison
    check![dev.platform() != "oneapi"]; //~ uncanonicalized_platform_comparison
    check! { dev.platform_name().unwrap() == "tpu" } //~ uncanonicalized_platform_comparison
}

// A user macro whose body is statements: an `if` inside it.
pub fn accelerated_path(dev: &Device) -> u32 {
    let mut level = 0;
    on_accelerator! {
        if dev.platform() == "gpu" { //~ uncanonicalized_platform_comparison
            level = 2;
        }
    }
    level
}

// A binding made inside a statement macro is followed inside it.
pub fn binding_in_macro(dev: &Device) -> bool {
    let mut found = false;
    on_accelerator! {
        let p = dev.platform();
        found = p == "cuda"; //~ uncanonicalized_platform_comparison
    }
    found
}

// Macros nested in macros: `matches!` inside `assert!`.
pub fn nested(dev: &Device) {
    assert!(matches!(dev.platform(), "cuda" | "rocm")); //~ uncanonicalized_platform_comparison
    assert!(!vec![dev.platform() == "cpu"].is_empty()); //~ uncanonicalized_platform_comparison
}

// Inside a closure inside a macro, and a macro inside a closure.
pub fn closures(devices: &[Device]) {
    assert!(devices.iter().all(|d| d.platform() != "gpu")); //~ uncanonicalized_platform_comparison
    devices.iter().for_each(|d| debug_assert!(d.platform == "cpu")); //~ uncanonicalized_platform_comparison
}

// A macro call over several lines: the marker is where the raw side starts,
// inside the macro's tokens.
pub fn multi_line(dev: &Device) {
    assert!(
        dev.id > 0
            && dev //~ uncanonicalized_platform_comparison
                .platform()
                == "tpu",
        "expected a TPU"
    );
    println!(
        "{} {}",
        dev.id,
        "cuda" == dev.platform(), //~ uncanonicalized_platform_comparison
    );
}

// The canonicalizer the fixes call: a fix names only what the crate defines.
pub fn canonicalize_platform(platform: &str) -> String {
    platform.to_ascii_lowercase()
}
