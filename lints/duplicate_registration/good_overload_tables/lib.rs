//! A script engine's native functions: one name, one overload per argument
//! type. The table keeps every overload under the name (the call picks one
//! by the argument's type), so `abs` for `i64` and `abs` for `f64` are two
//! entries, not a duplicate, whatever `register_1_arg` is called.

pub mod engine;
pub mod stdlib;
