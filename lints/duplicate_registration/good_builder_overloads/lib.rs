//! `duplicate_registration` must stay silent: a kernel table whose
//! `register_*` methods hand the name to a builder, and the builder's
//! `register` appends one more overload (`entry(name).or_default().push`).
//! A name registered for two argument types is two overloads, not a
//! duplicate; nor is it through a helper that wraps those methods.

pub mod kernels;
pub mod table;
