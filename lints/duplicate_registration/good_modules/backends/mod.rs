//! Backends, one file each.

mod current;
mod legacy;
