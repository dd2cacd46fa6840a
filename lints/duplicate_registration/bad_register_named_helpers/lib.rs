//! Helpers named like registrations (`register_builtin_kernels(&mut reg)`)
//! are helpers: their bodies register constant keys on the registry they
//! are handed, so two of them giving one key on one registry clash, as two
//! helpers named otherwise would. The built-in `register*` name (keyed by
//! its first argument, here the registry) does not decide for them.

pub mod fused;
pub mod kernels;
pub mod table;

use table::KernelTable;

pub fn load(table: &mut KernelTable) -> Result<(), table::Taken> {
    kernels::register_builtin_kernels(table)?;
    fused::register_fused_kernels(table)?; //~ duplicate_registration
    Ok(())
}
