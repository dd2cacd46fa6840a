//! `uncanonicalized_platform_comparison`: near misses of `bad_macros.rs` that
//! must stay silent, for this lint and every other one: `macro_rules!` bodies
//! (templates, not code that runs), canonical values inside macro arguments,
//! raw values printed but not compared, and macro input that is not Rust
//! code.

pub struct Device {
    pub id: u32,
    pub platform: String,
}

impl Device {
    pub fn platform(&self) -> &str {
        &self.platform
    }
}

pub fn canonicalize_platform(platform: &str) -> String {
    match platform.to_lowercase().as_str() {
        "gpu" => "cuda".to_string(),
        other => other.to_string(),
    }
}

// The body of a `macro_rules!` definition is a template: never analysed, even
// where it reads like a raw comparison.
macro_rules! is_gpu {
    ($d:expr) => {
        $d.platform() == "gpu"
    };
}

// A body without metavariables parses as code, and is still a template.
macro_rules! default_is_cuda {
    () => {
        DEFAULT_DEVICE.platform() == "cuda" && DEFAULT_DEVICE.platform != "cpu"
    };
}

// A body of statements, with several rules.
macro_rules! pick_kernel {
    ($dev:ident) => {
        if $dev.platform() == "gpu" {
            return "cublas_gemm";
        }
    };
    () => {
        let dev = current_device();
        if dev.platform() == "tpu" {
            return "mxu_matmul";
        }
    };
}

// A user macro used below with canonical values only.
macro_rules! check {
    ($cond:expr) => {
        assert!($cond)
    };
}

macro_rules! on_accelerator {
    ($($body:tt)*) => {
        $($body)*
    };
}

// A `macro_rules!` defined inside a function is a template too.
pub fn local_template(dev: &Device) -> bool {
    macro_rules! raw_cpu {
        () => {
            dev.platform() == "cpu"
        };
    }
    canonicalize_platform(dev.platform()) == "cpu"
}

// Canonical values in `assert!`, `debug_assert!` and a user macro.
pub fn assert_canonical(dev: &Device) {
    assert!(canonicalize_platform(dev.platform()) == "cpu");
    debug_assert!(canonicalize_platform(&dev.platform) != "tpu");
    check!(canonicalize_platform(dev.platform()) == "cuda");
}

// Raw values formatted, not compared.
pub fn describe(dev: &Device) -> String {
    println!("device {} on {}", dev.id, dev.platform());
    eprintln!("platform: {platform}", platform = dev.platform);
    format!("{:?}", dev.platform())
}

// A comparison written inside a string literal, or turned into one by
// `stringify!`, is text, not code.
pub fn documented(dev: &Device) -> String {
    println!("dev.platform() == \"gpu\" is wrong: canonicalize first");
    let doc = stringify!(dev.platform() == "gpu");
    format!("{doc} {}", dev.id)
}

// A canonical binding compared inside a statement macro.
pub fn accelerated_path(dev: &Device) -> u32 {
    let mut level = 0;
    on_accelerator! {
        let p = canonicalize_platform(dev.platform());
        if p == "cuda" {
            level = 2;
        }
    }
    level
}

// Canonical values in `vec![..]` and in a logging macro's field.
pub fn flags(dev: &Device) -> Vec<bool> {
    let p = canonicalize_platform(dev.platform());
    tracing::debug!(cuda = p == "cuda", "picked a kernel");
    vec![p == "cuda", p == "rocm"]
}

// Macro input that is not Rust code: a query language of its own.
pub fn query_gpus(db: &Database) -> Rows {
    sql!(db, SELECT id FROM devices WHERE platform = "gpu")
}

// Inside the canonicalizer, raw comparisons in macros are its job too.
impl Device {
    pub fn canonicalize_platform(&self) -> String {
        debug_assert!(self.platform() != "", "device {} has no platform", self.id);
        if matches!(self.platform.as_str(), "gpu" | "GPU") {
            return "cuda".to_string();
        }
        self.platform().to_lowercase()
    }
}
