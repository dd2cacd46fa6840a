//! Shapes that once made the learning of registration functions report
//! false duplicates on public runtimes (burn, tauri, mistral.rs, wasmtime,
//! futures-util in the registry). Each is a call made twice with one key
//! that a reader knows is fine.

pub mod names;
pub mod waker;
pub mod upsert;
