//! Two plugin tables, each reached through its own `registry()`: the same
//! function name in two modules is two registries, whether the call names
//! the function alone or by its path.

pub mod host;
pub mod device;
pub mod load;
