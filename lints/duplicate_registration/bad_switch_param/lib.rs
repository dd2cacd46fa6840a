//! A component linker in wasmtime's style: the name map rejects a second
//! definition unless its caller passes `allow_shadowing`, and the linker
//! passes its own field, which `Linker::allow_shadowing(true)` sets.

pub mod names;
pub mod linker;
pub mod bench;
