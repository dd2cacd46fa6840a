//! An operator table in tract's and candle's style: ops are added through
//! helpers, and a name added twice is a bug the table reports at start-up.

pub mod ops;
pub mod registry;
