//! `impossible_value_comparison` through `Display`, where only the
//! semantic model knows the receiver's type: `to_string()`,
//! `format!("{}", ..)` and `.to_string().as_str()` of a method's result,
//! a field of a call's result held in a `let`, and a `Display` that writes
//! what a method of the type returns. Analysed as one crate.

mod accel;
mod session;

pub use accel::{Accelerator, Queue};
pub use session::Session;
