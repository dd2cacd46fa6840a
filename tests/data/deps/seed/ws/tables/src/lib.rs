//! Device priorities kept in `device-table`, whose `add_platform` replaces
//! the priority of a platform already there: calling it twice is fine. The
//! framework's `add_platform` of the same name and arity rejects, but this
//! package does not depend on the framework.

use device_table::Table;

pub fn priorities() -> Table {
    let mut table = Table::default();
    table.add_platform("cuda", 10);
    // Raised once the driver is known to be recent.
    table.add_platform("cuda", 20);
    table
}
