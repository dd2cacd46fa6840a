//! The component linker of `bad_switch_param`, used with shadowing allowed
//! (tests that redefine a host function on purpose), and by name once each.

pub mod names;
pub mod linker;
pub mod host;
