//! `non_canonical_platform_literal` must stay silent: lowering platforms that
//! are canonical names or the alias `"gpu"` (which stands for `cuda`, `rocm`
//! and `oneapi`), constants holding them, and string lists that are not
//! lowering platforms.

pub mod names {
    pub const CUDA: &str = "cuda";
    pub const TPU: &str = "tpu";
}

// Canonical names in a `platforms:` field and in `lower*` calls.
pub fn canonical_lists(ctx: &LoweringContext) -> Result<(), Error> {
    compile(&LoweringContext {
        backend: None,
        platforms: vec!["cpu", "tpu", "metal"],
    })?;
    lower(ctx, &["cuda", "rocm", "oneapi"])?;
    ctx.lower_for(&["cpu"])?;
    Ok(())
}

// `"gpu"` is a lowering platform: one module for every GPU.
pub fn gpu_lowering(ctx: &LoweringContext) -> Result<(), Error> {
    let mut multi = LoweringContext::new();
    multi.platforms = vec!["gpu", "cpu"];
    compile(&multi)?;
    lower(ctx, &["gpu"])?;
    Ok(())
}

// Constants holding canonical names.
pub fn const_platforms(ctx: &LoweringContext) -> Result<Executable, Error> {
    lower(ctx, &[names::CUDA, names::TPU])
}

// Lists in other fields are not lowering platforms: tags, labels and device
// kinds may be spelled any way.
pub fn not_lowering_platforms() -> BuildInfo {
    BuildInfo {
        tags: vec!["GPU", "CUDA"],
        labels: &["nvidia", "Tpu"],
        device_kinds: vec!["NVIDIA H100", "TPU v5e"],
    }
}

// A list of platforms passed to a call that is not a lowering.
pub fn not_a_lowering(report: &mut Report) {
    report.add_columns(&["CUDA", "ROCm"]);
    show_platforms(report, &["GPU", "vulkan"]);
}

// A loop over strings that lowers nothing: its literals are not lowering platforms.
pub fn print_names() {
    for name in ["foo", "bar"] {
        println!("{name}");
    }
}

// Calls that only look like lowering (`lower_bound`, `lowercase_all`) and a
// `platforms` field listing no accelerator platform at all: not lowering platforms.
pub fn not_lowering(sorted: &[&str], args: &mut Vec<String>) -> Release {
    let _ = lower_bound(sorted, &["m"]);
    lowercase_all(args, &["HELLO", "World"]);
    Release {
        platforms: vec!["linux-x86_64", "macos-arm64"],
    }
}
