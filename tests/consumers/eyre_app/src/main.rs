mod errors;

use eyre::{eyre, WrapErr};

fn read_settings(path: &str) -> eyre::Result<String> {
    std::fs::read_to_string(path).wrap_err_with(|| format!("reading {path}"))
}

fn start() -> eyre::Result<()> {
    // The server module sets up its error reports too.
    errors::init_errors()?; // BUG eyre-1: the hook is already set by main: `set_hook` returns Err(InstallError) and `?` ends main (eyre-0.6.14/src/lib.rs:584)
    Ok(())
}

fn early() -> eyre::Result<()> {
    // A report made before the hook is installed: with eyre's default
    // `auto-install` feature it installs the default hook in the OnceCell.
    let settings = read_settings("/nonexistent/settings.toml").unwrap_or_default();
    if settings.is_empty() {
        let report = eyre!("no settings, using defaults");
        eprintln!("{report}");
    }
    errors::init_errors()?; // BUG eyre-2: the report above already filled HOOK with the default handler (eyre-0.6.14/src/lib.rs:598), so `set_hook` returns Err(InstallError) (eyre-0.6.14/src/lib.rs:584)
    Ok(())
}

fn main() -> eyre::Result<()> {
    if std::env::args().any(|a| a == "--early") {
        return early();
    }
    errors::init_errors()?;
    errors::init_errors_if_unset();
    let _ = eyre::set_hook(Box::new(eyre::DefaultHandler::default_with)); // TRAP eyre-t2: the `Err` is discarded on purpose
    start()?;
    Ok(())
}
