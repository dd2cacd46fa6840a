//! Builders and early returns: the same key twice is not a duplicate.

// An error collector that hands itself back: `check = check.register(..)`
// accumulates entries, it is not a registry of unique keys.
pub fn check_flatten(mut check: TensorCheck, d1: usize, d2: usize, end: usize) -> TensorCheck {
    if d2 > d1 {
        check = check.register("Flatten", TensorError::new("result dim too large"));
    }
    if d1 < end + 1 {
        check = check.register("Flatten", TensorError::new("end dim too large"));
    }
    check
}

// The same, shadowing with `let`.
pub fn check_squeeze(check: TensorCheck, dim: usize) -> TensorCheck {
    let check = check.register("Squeeze", TensorError::new("first"));
    let check = check.register("Squeeze", TensorError::new("second"));
    check
}

// A chain of registrations on a builder.
pub fn build_table() -> Table {
    Table::builder()
        .register("slot", first_handler)
        .register("slot", second_handler)
        .build()
}

// `return r.register(..)`: the function is over once it ran.
pub fn check_permute(check: TensorCheck, axes: &[usize], dims: usize) -> TensorCheck {
    if axes.iter().any(|&a| a >= dims) {
        return check.register("Permute", TensorError::new("axis out of range"));
    }
    if !unique(axes) {
        return check.register("Permute", TensorError::new("axes not unique"));
    }
    check
}

// A registration followed by `return` in its block, then the fallback.
pub fn init_preferred(registry: &mut Registry, has_gpu: bool) {
    if has_gpu {
        registry.register_backend("preferred", make_gpu_client);
        return;
    }
    registry.register_backend("preferred", make_cpu_client);
}
