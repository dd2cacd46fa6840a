//! `uncanonicalized_platform_comparison`: raw platform values read directly
//! (`platform()`, `platform_name()`, `.platform`) and compared by operators and
//! comparison methods. Bindings are in `bad_bindings.rs`; `match`, macros and
//! closures in `bad_match_and_macros.rs`.

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

pub struct Client {
    pub platform: String,
}

impl Client {
    pub fn platform_name(&self) -> &str {
        &self.platform
    }
}

pub struct Module {
    pub platforms: Vec<String>,
}

// The canonicalizer itself: its comparisons are never reported.
pub fn canonicalize_platform(platform: &str) -> String {
    match platform.to_lowercase().as_str() {
        "gpu" => "cuda".to_string(),
        other => other.to_string(),
    }
}

const CUDA: &str = "cuda";
static TPU_NAME: &str = "tpu";

// `==` with a literal: the method call is the raw side.
pub fn eq_literal(dev: &Device) -> bool {
    dev.platform() == "cuda" //~ uncanonicalized_platform_comparison
}

// `!=` with a literal.
pub fn ne_literal(dev: &Device) -> bool {
    dev.platform() != "cpu" //~ uncanonicalized_platform_comparison
}

// The `platform` field is raw too.
pub fn field(dev: &Device) -> bool {
    dev.platform == "tpu" //~ uncanonicalized_platform_comparison
}

// `platform_name()` on a client, no arguments.
pub fn client_platform_name(client: &Client) -> bool {
    client.platform_name() == "rocm" //~ uncanonicalized_platform_comparison
}

// The literal on the left: the finding still points at the raw side.
pub fn literal_first(dev: &Device) -> bool {
    "metal" == dev.platform() //~ uncanonicalized_platform_comparison
}

// A string `const` and a string `static` are compared like literals.
pub fn string_consts(dev: &Device) -> bool {
    dev.platform() == CUDA || dev.platform() != TPU_NAME //~ uncanonicalized_platform_comparison //~ uncanonicalized_platform_comparison
}

// Two raw values: one finding, on the left side.
pub fn raw_with_raw(a: &Device, b: &Device) -> bool {
    a.platform() == b.platform() //~ uncanonicalized_platform_comparison
}

// A raw value compared with a canonical one is still a raw comparison.
pub fn raw_with_canonical(dev: &Device, other: &Device) -> bool {
    dev.platform() == canonicalize_platform(other.platform()) //~ uncanonicalized_platform_comparison
}

// A raw value compared with an element of `platforms` (canonical).
pub fn raw_with_lowering_platform(dev: &Device, module: &Module) -> bool {
    dev.platform() == module.platforms[0] //~ uncanonicalized_platform_comparison
}

// `.eq(..)` and `.ne(..)`.
pub fn eq_ne_methods(dev: &Device) -> bool {
    dev.platform().eq("cuda") //~ uncanonicalized_platform_comparison
        && dev.platform().ne("rocm") //~ uncanonicalized_platform_comparison
}

// Ignoring case fixes `"CUDA"`, never the alias `"gpu"`.
pub fn eq_ignore_ascii_case(dev: &Device) -> bool {
    dev.platform().eq_ignore_ascii_case("cuda") //~ uncanonicalized_platform_comparison
}

// Wrappers keep the value raw: `&`, `.as_str()`, `.to_string()`.
pub fn wrappers(dev: &Device) -> bool {
    let by_ref = &dev.platform == "cpu"; //~ uncanonicalized_platform_comparison
    let as_str = dev.platform.as_str() == "cpu"; //~ uncanonicalized_platform_comparison
    let owned = dev.platform().to_string() == "cpu"; //~ uncanonicalized_platform_comparison
    by_ref || as_str || owned
}

// Lowercasing is not canonicalization: `"GPU"` becomes `"gpu"`, still an alias.
pub fn lowercased(dev: &Device) -> bool {
    dev.platform().to_lowercase() == "cuda" //~ uncanonicalized_platform_comparison
}

// `.unwrap()` and `.unwrap_or(..)` on `platform_name()` keep it raw.
pub fn unwrapped(dev: &Device) -> bool {
    dev.platform_name().unwrap() == "cpu" //~ uncanonicalized_platform_comparison
        || dev.platform_name().unwrap_or("cpu") == "tpu" //~ uncanonicalized_platform_comparison
}

// Two findings on one line.
pub fn same_platform_as_cpu(a: &Device, b: &Device) -> bool {
    a.platform() == "cpu" && b.platform() == "cpu" //~ uncanonicalized_platform_comparison //~ uncanonicalized_platform_comparison
}

// In a method body, through `self`.
impl Device {
    pub fn is_tpu(&self) -> bool {
        self.platform == "tpu" //~ uncanonicalized_platform_comparison
    }
}

// A comparison that spans lines: the marker is where the raw side starts.
pub fn multi_line(dev: &Device) -> bool {
    "oneapi"
        == dev //~ uncanonicalized_platform_comparison
            .platform()
}
