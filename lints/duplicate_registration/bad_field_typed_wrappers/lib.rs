//! A kernel dispatcher keeps its kernels in a table of its own type: the
//! table's `insert` refuses a second kernel for one (op, device) key, and the
//! dispatcher's `bind` builds that key from its arguments and hands it on
//! through the field (`self.table.insert(key, kernel)`). `bind` is learned
//! from the field's declared type, so `setup` binding `matmul` on `cuda`
//! twice is reported; a map field's `insert` (`self.counters`) is the map's,
//! and recording one counter twice is not.

pub mod dispatch;
pub mod setup;
