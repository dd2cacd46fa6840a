//! The twin of `good_cache_wrappers`: `prewarm` registers `sky` twice
//! itself, past the cache, and the second fails.
//!
//! A renderer's shader cache: `load` answers the shader compiled already or
//! compiles and registers it. Registering refuses a second shader of one
//! name, but `load` registers only what is not there: loading `sky` twice
//! compiles it once.

pub mod shaders;
pub mod frame;
