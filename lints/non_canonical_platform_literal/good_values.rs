//! `non_canonical_platform_literal` must stay silent: values that are not
//! canonical platforms (shadowed, other fields, other closures, labels), and
//! the canonicalizer itself.

// Inside the canonicalizer, aliases and cases are what it handles: nothing in
// its body is flagged, not even a check on its own recursive result.
pub fn canonicalize_platform(name: &str) -> String {
    if let Some(target) = PLATFORM_ALIASES.get(name) {
        // Aliases may chain ("GPU" -> "gpu" -> "cuda"): resolve to a fixpoint.
        let resolved = canonicalize_platform(target);
        debug_assert_ne!(resolved, "gpu", "aliases must resolve to a canonical platform");
        return resolved;
    }
    name.to_ascii_lowercase()
}

// Shadowing the other way: the display form of a canonical name is upper
// case on purpose and no longer a canonical value.
pub fn device_heading(name: &str) -> String {
    let platform = canonicalize_platform(name);
    let platform = platform.to_uppercase();
    if platform == "CUDA" {
        return format!("{platform} (NVIDIA)");
    }
    platform
}

// A closure parameter shadows a canonical binding of the same name.
pub fn has_gpu_section(name: &str, sections: &[&str]) -> bool {
    let p = canonicalize_platform(name);
    !p.is_empty() && sections.iter().any(|p| *p == "GPU")
}

// A `let` of a string that is not a canonical name is just a label.
pub fn gpu_lane(trace: &Trace) -> Option<&Lane> {
    let lane = "GPU";
    trace.lanes.iter().find(|l| l.name == lane)
}

// Only a field named `platforms` holds lowering platforms: a config's alias
// list does contain `"gpu"`.
pub fn gpu_alias_enabled(config: &RuntimeConfig) -> bool {
    config.platform_aliases.iter().any(|a| *a == "gpu")
}

// Build tags are not platforms.
pub fn built_with_gpu(build: &BuildInfo) -> bool {
    for tag in &build.tags {
        if tag == "gpu" || tag == "CUDA" {
            return true;
        }
    }
    false
}

// Parsing user input: the scrutinee is a command-line string, not a
// canonical value, so aliases are expected here.
pub fn parse_device_flag(flag: &str) -> Vec<&'static str> {
    match flag {
        "gpu" | "GPU" => vec!["cuda", "rocm", "oneapi"],
        "CPU" | "cpu" => vec!["cpu"],
        other => vec![leak_str(other)],
    }
}

// A binding in an inner block ends with the block: after it, `p` is the
// user's label again, not the canonical value.
pub fn device_summary(name: &str, label: &str) -> String {
    let p = label;
    {
        let p = canonicalize_platform(name);
        log::debug!("canonical platform {p}");
    }
    if p == "GPU" {
        return String::from("accelerator");
    }
    p.to_string()
}

// Elements of `platforms` compared with canonical names in a `filter` closure.
pub fn gpu_platform_count(ctx: &ModuleContext) -> usize {
    ctx.platforms.iter().filter(|p| **p == "cuda" || **p == "rocm").count()
}

// A `let mut` assigned in a branch may hold either value afterwards: not a
// canonical value any more.
pub fn chosen_platform(use_gpu: bool) -> bool {
    let mut platform = "cpu";
    if use_gpu {
        platform = "gpu";
    }
    platform == "gpu"
}

// Reassigned from the environment: unknown.
pub fn from_env() -> bool {
    let mut target = "cpu".to_string();
    if let Ok(v) = std::env::var("TARGET_PLATFORM") {
        target = v;
    }
    target == "GPU"
}
