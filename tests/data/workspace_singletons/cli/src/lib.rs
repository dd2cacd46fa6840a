/// The drivers of this build, through the facade's re-export.
fn install_cli_drivers() -> Result<(), String> {
    ws_facade::any::install_drivers(&[]) //~ initialized_twice
}

pub fn run() -> Result<(), String> {
    install_cli_drivers()?;
    Ok(())
}

/// The default install runs once however often it is called.
pub fn connect() {
    ws_facade::any::install_default_drivers();
    ws_facade::any::install_default_drivers();
}
