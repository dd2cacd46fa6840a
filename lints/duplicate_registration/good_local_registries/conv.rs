//! Another layer, another table: the same names again.

pub fn new_conv() -> Conv {
    let mut base = ModuleBase::new();
    base.register_parameter("weight".to_string(), Parameter::new(kernel()));
    base.register_parameter("bias".to_string(), Parameter::new(bias()));
    Conv { base }
}

pub fn new_backends() -> Registry {
    let mut r = Registry::new();
    r.register_backend("cuda", make_cuda_client);
    r
}
