//! Each table by its path, once each.
fn cuda() -> u32 {
    2
}

pub fn load_all() -> Result<(), String> {
    crate::host::load()?;
    crate::device::registry().register("cuda-async", cuda)?;
    crate::host::registry().register("cuda-async", cuda)
}
