//! The twin of `good_builder_overloads`: the builder's `register` refuses a
//! name the table already holds, so the second `relu` fails at start-up,
//! through the same `register_unary` and the same helper.

pub mod kernels;
pub mod table;
