//! Each layer builds its own parameter table (torsh's `ModuleBase::new()`).

pub fn new_linear() -> Linear {
    let mut base = ModuleBase::new();
    base.register_parameter("weight".to_string(), Parameter::new(weight()));
    base.register_parameter("bias".to_string(), Parameter::new(bias()));
    Linear { base }
}

pub fn new_backends() -> Registry {
    let mut r = Registry::new();
    r.register_backend("cuda", make_cuda_client);
    r
}
