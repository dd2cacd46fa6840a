//! The twin of `good_learned_methods_by_type`: only the scene defines
//! `add_node`, and it refuses a second node of one name, so adding `player`
//! twice fails, whether the receiver's type is written or not.

pub mod scene;
pub mod setup;
