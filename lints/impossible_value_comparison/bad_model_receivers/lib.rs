//! `impossible_value_comparison` where only the semantic model knows the
//! receiver's type: a function's return type (through `?` too), an index
//! into a field, a local set from a constructor and a method. Analysed as
//! one crate.

mod device;
mod graph;

pub use device::{Device, DeviceKind, current_kind};
pub use graph::Graph;
