//! `duplicate_registration`: registries of any kind. A call whose last
//! segment starts with `register`, with a string first argument, is keyed by
//! (callee name, receiver as written, key ignoring ASCII case).
//!
//! Every case uses its own (callee, receiver, key) group.

// A rule table keyed by primitive name: `neg` twice on one receiver.
pub fn register_unary_rules(rules: &mut RuleRegistry) {
    rules.register_unit_element_wise("neg", neg_rule);
    rules.register_unit_element_wise("sign", sign_rule);
    rules.register_unit_element_wise("neg", neg_rule_v2); //~ duplicate_registration
}

// The plain `register` method, on a field of `self`.
impl RuleTables {
    pub fn register_trig_rules(&mut self) {
        self.jvp.register("sin", sin_jvp);
        self.jvp.register("cos", cos_jvp);
        self.jvp.register("sin", sin_jvp_fast); //~ duplicate_registration
    }
}

// Keys that differ only in ASCII case, on a registry that is not about
// platforms: `"CUDA"` and `"cuda"` collide.
pub fn register_device_kernels(kernels: &mut KernelRegistry) {
    kernels.register_kernel("cuda", cuda_kernel);
    kernels.register_kernel("CUDA", cuda_kernel_v2); //~ duplicate_registration
}

// The receiver is compared as written, without whitespace: a method chain
// split over lines is the same receiver.
pub fn register_global_kernels() {
    KernelRegistry::global().register_kernel("rocm_sort", rocm_sort);
    KernelRegistry::global()
        .register_kernel("rocm_sort", rocm_sort_v2); //~ duplicate_registration
}

// A turbofish does not change the callee name.
pub fn register_codecs(codecs: &mut CodecRegistry) {
    codecs.register::<Bf16Codec>("bf16");
    codecs.register::<Bf16CodecFast>("bf16"); //~ duplicate_registration
}

// A free function under two paths: the last segment names the registry.
pub fn register_dtypes() {
    dtypes::register_dtype("bfloat16", BFLOAT16);
    crate::dtypes::register_dtype("BFloat16", BFLOAT16); //~ duplicate_registration
}

// One registry made here, filled twice under one key.
pub fn build_twice() -> Registry {
    let mut r = Registry::new();
    r.register("sin_rule", sin_a);
    r.register("sin_rule", sin_b); //~ duplicate_registration
    r
}

// Two methods (in two `impl` blocks) of one type share `self.rules`.
impl LoweringTable {
    pub fn register_defaults(&mut self) {
        self.rules.register_rule("reduce_sum", reduce_sum);
    }
}

impl<B: Backend> LoweringTable<B> {
    pub fn register_extras(&mut self) {
        self.rules.register_rule("reduce_sum", reduce_sum_fast); //~ duplicate_registration
    }
}

// A method called as an associated function (UFCS): its first argument is the
// receiver, the key comes after it.
pub fn register_through_paths(reg: &mut Registry) {
    reg.register_backend("ufcs_cuda", make_a);
    Registry::register_backend(reg, "ufcs_cuda", make_b); //~ duplicate_registration
    Registry::register_backend(&mut *reg, "ufcs_rocm", make_c);
    crate::Registry::register_backend(reg, "ufcs_rocm", make_d); //~ duplicate_registration
}

// An associated function keyed by its first argument (a global registry):
// not a method called with its receiver.
pub fn register_globally() {
    GlobalRegistry::register_backend("global_tpu", make_a);
    GlobalRegistry::register_backend("global_tpu", make_b); //~ duplicate_registration
}
