fn main() {
    ws_facade::any::install_default_drivers();
    if let Err(e) = ws_cli::run() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
