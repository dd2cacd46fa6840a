//! `uncanonicalized_platform_comparison`: a local compared as written with a
//! platform name in a function that also hands it to a normalizer the crate
//! defines. The normalizers are learned from what their bodies do: an alias
//! mapped to a name, spellings sharing a `match` arm, a case folded before
//! comparing. Analysed as one crate.

pub mod cli;
pub mod runtime;
