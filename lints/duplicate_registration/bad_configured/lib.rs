//! A runtime configured by its own `backend-lint.toml`: every finding at its
//! configured level, in its own vocabulary.

pub struct Kernels;

impl Kernels {
    pub fn add_kernel(&mut self, _device: u32, _name: &str, _f: fn()) {}
    pub fn has_kernel(&self, _name: &str) -> bool {
        false
    }
    pub fn register_backend(&mut self, _name: &str, _f: fn()) {}
}

pub struct Device;

impl Device {
    pub fn device_kind(&self) -> &str {
        "vulkan"
    }
    pub fn platform(&self) -> &str {
        "vulkan"
    }
}

pub fn normalize_device_kind(kind: &str) -> String {
    // Raw comparisons inside the canonicalizer are its job.
    if kind == "gpu" || kind == "VULKAN" {
        return "vulkan".to_string();
    }
    kind.to_lowercase()
}

fn f() {}

pub fn init(k: &mut Kernels) {
    // `add_kernel` is keyed by its second argument: two devices, one name.
    k.add_kernel(0, "matmul", f);
    k.add_kernel(1, "matmul", f); //~ duplicate_registration
    k.add_kernel(0, "softmax", f);
    if !k.has_kernel("softmax") {
        k.add_kernel(1, "softmax", f);
    }
    // The built-in `register*` functions are still registrations.
    k.register_backend("vulkan", f);
    k.register_backend("vulkan", f); //~ duplicate_registration
}

pub fn pick(dev: &Device) -> &'static str {
    if dev.device_kind() == "vulkan" { //~ uncanonicalized_platform_comparison
        return "spirv";
    }
    if normalize_device_kind(dev.platform()) == "gpu" { //~ non_canonical_platform_literal
        return "any gpu";
    }
    if normalize_device_kind(dev.device_kind()) == "host" {
        return "native";
    }
    // `cpu` is not a platform of this runtime: nothing to say about it.
    if normalize_device_kind(dev.device_kind()) == "cpu" {
        return "never";
    }
    "fallback"
}

pub struct Ctx;

impl Ctx {
    pub fn with_backend(self, _b: Backend) -> Ctx {
        self
    }
}

pub struct Backend;

pub fn get_backend(_p: &str) -> Backend {
    Backend
}

pub fn lower(_c: &Ctx, _p: &[&str]) {}

pub fn lowering_is_allowed(base: Ctx) {
    // A mismatch, but `lowering_backend_mismatch = "allow"`.
    let ctx = Ctx.with_backend(get_backend("host"));
    lower(&ctx, &["cuda"]);
    drop(base);
}
