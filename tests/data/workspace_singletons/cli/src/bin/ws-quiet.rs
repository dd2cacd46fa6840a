/// The error of the second install is looked at and dealt with.
fn main() {
    ws_facade::any::install_default_drivers();
    if let Err(e) = ws_cli::run() {
        eprintln!("note: {e}");
    }
}
