//! A registry that refuses factories after its backends are initialized,
//! used in the right order, beside registries whose initialization
//! changes nothing for later registrations.

pub mod bridge;
pub mod plugin;
