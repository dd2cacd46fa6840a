pub mod capability;
pub mod permission;
