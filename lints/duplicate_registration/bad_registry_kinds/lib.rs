//! `duplicate_registration`: what the second call does, said when the
//! registry was made in the function by a constructor of a known collection.

use std::collections::{BTreeMap, HashMap};

// A map replaces the first value.
pub fn factories() -> HashMap<&'static str, Factory> {
    let mut factories = HashMap::new();
    factories.insert("cuda", make_cuda_client as Factory);
    factories.insert("cuda", make_cuda_client_async as Factory); //~ duplicate_registration
    factories
}

pub fn lowerings() -> BTreeMap<&'static str, Rule> {
    let mut rules: BTreeMap<&'static str, Rule> = Default::default();
    rules.insert("sort", lower_sort);
    rules.insert("sort", lower_sort_fast); //~ duplicate_registration
    rules
}

// A list keeps both: a lookup finds the first, the second is never used.
pub fn plugin_order() -> Vec<&'static str> {
    let mut plugins = vec![];
    plugins.push("cuda");
    plugins.push("rocm");
    plugins.push("cuda"); //~ duplicate_registration
    plugins
}

pub fn backends() -> Vec<(&'static str, Factory)> {
    let mut backends = Vec::with_capacity(2);
    backends.register_backend("tpu", make_tpu_client);
    backends.register_backend("tpu", make_tpu_client_v2); //~ duplicate_registration
    backends
}

// A registry of unknown type: it may fail or replace.
pub fn registry() -> Registry {
    let mut registry = Registry::new();
    registry.register_backend("cpu", make_cpu_client);
    registry.register_backend("cpu", make_cpu_client_v2); //~ duplicate_registration
    registry
}
