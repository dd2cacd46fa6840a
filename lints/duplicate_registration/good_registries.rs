//! `duplicate_registration` must stay silent: one key on different
//! registries, that is, another callee name or another receiver; and calls
//! whose name does not start with `register`.

// Two receivers: JVP rules and transpose rules are separate tables keyed by
// the same primitive names.
pub fn register_neg_rules(jvp_rules: &mut RuleRegistry, transpose_rules: &mut RuleRegistry) {
    jvp_rules.register_unit_element_wise("neg", neg_jvp);
    transpose_rules.register_unit_element_wise("neg", neg_transpose);
}

// Two fields of `self`.
impl RuleTables {
    pub fn register_sin_rules(&mut self) {
        self.jvp.register("sin", sin_jvp);
        self.vmap.register("sin", sin_batching_rule);
        self.transpose.register("sin", sin_transpose);
    }
}

// Two callee names on one receiver: element-wise and reduction rules are two
// tables of one registry.
pub fn register_max_rules(rules: &mut RuleRegistry) {
    rules.register_unit_element_wise("max", max_rule);
    rules.register_reduction("max", reduce_max_rule);
}

// A method and a free function of the same name: a receiver and none.
pub fn register_cuda_kernels(kernels: &mut KernelRegistry) {
    kernels.register_kernel("cuda_sort", cuda_sort);
    register_kernel("cuda_sort", cuda_sort);
}

// Receivers that are different expressions: two elements of an array of
// registries.
pub fn register_per_device(kernels: &mut [KernelRegistry; 2]) {
    kernels[0].register_kernel("rocm_sort", rocm_sort);
    kernels[1].register_kernel("rocm_sort", rocm_sort);
}

// Names that only contain `register` without starting with it are other
// operations: `try_register` tolerates an existing key, `reregister` replaces
// it on purpose.
pub fn refresh_codecs(codecs: &mut CodecRegistry) {
    codecs.try_register("bf16", Bf16Codec::new());
    codecs.try_register("bf16", Bf16Codec::new());
    codecs.reregister("f8e4m3", F8Codec::new());
    codecs.reregister("f8e4m3", F8Codec::fast());
}


// A registry made in each function (or closure) is its own, whatever its name.
pub fn build_jvp_rules() -> OpRegistry {
    let mut reg = OpRegistry::new();
    reg.register("matmul_rule", matmul_jvp);
    reg
}

pub fn build_vmap_rules() -> OpRegistry {
    let mut reg = OpRegistry::new();
    reg.register("matmul_rule", matmul_vmap);
    reg
}

pub fn per_thread_registries() {
    std::thread::spawn(|| {
        let mut r = Registry::default();
        r.register_backend("thread_cuda", make_a);
    });
    std::thread::spawn(|| {
        let mut r = Registry::default();
        r.register_backend("thread_cuda", make_b);
    });
}

// `self` is another value in the methods of another type: each layer has its
// own parameter table behind `self.base` (torsh's lazy layers).
impl LazyConv1d {
    fn initialize(&mut self) {
        self.base.register_parameter("weight".to_string(), Parameter::new(w1()));
    }
}

impl LazyConv2d {
    fn initialize(&mut self) {
        self.base.register_parameter("weight".to_string(), Parameter::new(w2()));
    }
}

// Trait impls too: the self type decides, not the trait.
impl Module for Linear {
    fn reset(&mut self) {
        self.params.register_parameter("bias", zeros());
    }
}

impl Module for Bilinear {
    fn reset(&mut self) {
        self.params.register_parameter("bias", zeros());
    }
}

// A method called as an associated function on two receivers.
pub fn register_on_two(a: &mut Registry, b: &mut Registry) {
    Registry::register_backend(a, "ufcs_cpu", make_a);
    Registry::register_backend(&mut *b, "ufcs_cpu", make_b);
}
