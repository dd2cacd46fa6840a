//! Configuration: where it is found, what it may say, and the vocabulary
//! (platform names, registration functions, ...) the lints read from it.
//!
//! Sources, the nearest to the analysed code winning whole (no merging, as
//! ruff does): `--config PATH`; else, walking up from the package root (or
//! the file's folder), the first folder that has `backend-lint.toml`,
//! `.backend-lint.toml`, or a `Cargo.toml` with
//! `[package.metadata.backend-lint]` or `[workspace.metadata.backend-lint]`
//! (in that order within one folder); else the built-in defaults.
//! Command-line levels (`-A/-W/-D`) apply over whichever was found.
//!
//! The file format is `file` (and what the effective configuration writes
//! back), its errors `error`, the search for it `loader`; what a found
//! configuration answers (levels, `exclude`, `[per-file-ignores]`) is
//! `resolved`. The vocabulary is `vocab`, made of the name patterns of
//! `names`; `platform` reads platform names with it, and `init` writes the
//! file `backend-lint init` starts from.

pub mod init;
pub mod platform;

mod error;
mod file;
mod loader;
mod names;
mod resolved;
mod vocab;

pub use crate::model::lint_id::Level;
pub use error::ConfigError;
pub use loader::{CONFIG_FILES, Loader};
pub use names::FirstBytes;
pub use resolved::{Config, Origin, Overrides};
pub use vocab::{
    CallReceiver, ConstantKey, LearnedFunction, NORMALIZERS, NameUse, Names, ONCE_TYPES,
    PLATFORMS_FIELD, SINGLETON_MECHANISMS, Vocabulary,
};
