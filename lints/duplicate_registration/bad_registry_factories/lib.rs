//! A media player's codec table refuses a second codec of one name unless
//! replacing was allowed (its `Occupied` arm guarded by `self.replace`).
//! `standard()` builds the table every player starts from and returns it:
//! what it installed (itself and through `audio`) is in the table its
//! callers get, so a player installing `h264` or `opus` again is reported.
//! The same install after `allow_replace(true)`, or on a table built
//! another way, is not.

pub mod codecs;
pub mod players;
