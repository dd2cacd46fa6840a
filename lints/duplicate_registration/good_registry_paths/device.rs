use crate::host::{Factory, Table};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// The device plugins: another table, and a function of the same name.
pub fn registry() -> MutexGuard<'static, Table> {
    static TABLE: OnceLock<Mutex<Table>> = OnceLock::new();
    TABLE.get_or_init(Default::default).lock().unwrap()
}

fn cuda() -> u32 {
    1
}

pub fn load() -> Result<(), String> {
    let f: Factory = cuda;
    registry().register("cuda", f)
}
