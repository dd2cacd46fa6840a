//! `duplicate_registration` must stay silent: a registry made locally
//! (`Registry::new()`) in a function of one file and one made alike in a
//! function of another file are two registries, even when the functions,
//! the bindings and the registry ids within each file are the same.

mod linear;
mod conv;
