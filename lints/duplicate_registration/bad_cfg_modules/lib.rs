//! `duplicate_registration`: a `cfg` on a `mod` declaration covers the whole
//! file of that module (and the modules it declares), and it is compared like
//! any other `cfg`: features are additive, so `feature = "a"` and
//! `feature = "b"` can hold together. The `cfg` of one `mod` declaration does
//! not reach the declarations after it.
//!
//! Production code is one scope for the whole crate: each case uses its own
//! (callee, receiver, key) group. The two registrations of a case are in two
//! files at the same depth, and the first one comes first both by path and
//! by `mod` order.

#[cfg(feature = "a")]
mod a_backend;
#[cfg(feature = "b")]
mod b_backend;
mod common;
#[cfg(not(feature = "b"))]
mod fallback;
#[cfg(not(feature = "a"))]
mod stub;
#[cfg(test)]
mod tests;
