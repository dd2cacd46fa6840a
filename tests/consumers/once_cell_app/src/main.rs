mod config;

use once_cell::sync::OnceCell;
use once_cell::unsync;

static INSTANCE_ID: OnceCell<u64> = OnceCell::new();

fn reload(path: &str) {
    // A hot reload that forgets the cell is write-once.
    config::load(path); // BUG once_cell-2: `OnceCell::set` on a full cell returns Err and `expect` panics (once_cell-1.21.4/src/lib.rs:1071)
}

fn main() {
    config::load("app.toml");
    if std::env::args().any(|a| a == "--reload") {
        reload("app.toml");
    }
    let cfg = config::load_or_default(); // TRAP once_cell-t1: `get_or_init` on a full cell returns the value, never fails
    println!("{} workers from {}", cfg.workers, config::get().path);

    INSTANCE_ID.set(7).unwrap();
    let _ = INSTANCE_ID.set(8); // TRAP once_cell-t2: the `Err` of the second `set` is discarded on purpose
    let kept = INSTANCE_ID.set(9).is_err(); // TRAP once_cell-t3: the failure is tested below and the program carries on
    if kept {
        println!("instance id kept: {}", INSTANCE_ID.get().unwrap());
    }

    // Two cells, two values: a second cell object is no second set.
    let first = unsync::OnceCell::new();
    let second = unsync::OnceCell::new();
    first.set("a").unwrap();
    second.set("a").unwrap(); // TRAP once_cell-t4: another cell object, empty, so `set` succeeds

    INSTANCE_ID.set(10).unwrap(); // BUG once_cell-1: INSTANCE_ID was set above; this `set` returns Err(10) and `unwrap` panics (once_cell-1.21.4/src/lib.rs:1071)
}
