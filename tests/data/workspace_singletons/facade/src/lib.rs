pub mod any;

/// Two installs by the defining crate's path.
pub fn reinstall() -> Result<(), String> {
    ws_drivers::install_drivers(&[])?;
    ws_drivers::install_drivers(&[])?; //~ initialized_twice
    Ok(())
}
