//! The data every layer shares, importing nothing of the crate: spans and
//! source files, diagnostics, the facts the per-file pass extracts, `cfg`
//! predicates, lint ids and levels, and how text from the checkout is shown.

pub mod cfg;
pub mod diagnostic;
pub mod facts;
pub mod fix;
pub mod lint_id;
pub mod source;
pub mod text;
pub mod typo;
