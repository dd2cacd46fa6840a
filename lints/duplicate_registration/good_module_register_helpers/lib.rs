//! `duplicate_registration` must stay silent: every module has its own
//! `pub fn register(table)`, each registering other names. Two helpers of
//! one name are two functions; a call of one is not a call of the other.

pub mod activations;
pub mod reductions;
pub mod table;

use table::KernelTable;

pub fn load(table: &mut KernelTable) -> Result<(), table::Taken> {
    activations::register(table)?;
    reductions::register(table)?;
    Ok(())
}
