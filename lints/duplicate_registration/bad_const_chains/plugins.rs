//! Plugin names, in terms of `names`.

use crate::names;

pub const HOST: &str = names::HOST;
