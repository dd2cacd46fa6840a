//! The application's error reports: a hook that adds a line of context,
//! installed with `eyre::set_hook` as eyre's docs show.

use std::error::Error as StdError;
use std::fmt;

pub struct AppHandler {
    inner: Box<dyn eyre::EyreHandler>,
}

impl eyre::EyreHandler for AppHandler {
    fn debug(&self, error: &(dyn StdError + 'static), f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "[app]")?;
        self.inner.debug(error, f)
    }
}

fn app_handler(error: &(dyn StdError + 'static)) -> Box<dyn eyre::EyreHandler> {
    Box::new(AppHandler {
        inner: eyre::DefaultHandler::default_with(error),
    })
}

/// Install the hook; eyre keeps it in a `OnceCell`, so a second install returns `Err`.
pub fn init_errors() -> eyre::Result<()> {
    eyre::set_hook(Box::new(app_handler))?;
    Ok(())
}

/// For libraries embedding the app: keep the host's hook when it has one.
pub fn init_errors_if_unset() {
    let installed = eyre::set_hook(Box::new(app_handler)); // TRAP eyre-t1: the `Err` is tested below and the program carries on with the host's hook
    if installed.is_err() {
        eprintln!("keeping the existing report hook");
    }
}
