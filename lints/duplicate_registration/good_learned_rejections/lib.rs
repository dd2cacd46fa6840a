//! The same tables used with one name each, and look-alikes that do not
//! reject a second key: a map that replaces and says so, a check of a key
//! that is no parameter, a set that only remembers what it saw.

pub mod tables;
pub mod setup;
