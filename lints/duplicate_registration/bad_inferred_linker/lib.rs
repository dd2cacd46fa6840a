//! A host linker in wasmtime's style: `func_wrap(module, name, f)` defines an
//! import once; defining it again is an error unless shadowing is allowed.

pub mod linker;
pub mod host;
