//! A query engine's scalar functions, dispatched on the name and the kind of
//! the argument: `len` of a string and `len` of an array are two entries of
//! the table, whose key is the pair, and the registry refuses only the same
//! pair twice.

pub mod functions;
pub mod builtins;
