//! A compiler's scope analysis: each name of a scope is recorded with how it
//! is used. Seeing the name again adds a use to the same entry: the table
//! merges, so recording `x` as assigned and then as read is no duplicate.

pub mod scope;
pub mod flags;
pub mod resolve;
