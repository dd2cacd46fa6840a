//! A configuration checker whose errors are miette reports.

use miette::{miette, Diagnostic, NarratableReportHandler, ReportHandler, Result};

fn narrate(_: &(dyn Diagnostic + 'static)) -> Box<dyn ReportHandler> {
    Box::new(NarratableReportHandler::new())
}

/// Plain-text reports (for screen readers and CI logs), installed once:
/// `miette::set_hook` keeps the hook in a `OnceLock` and returns `Err` after.
pub fn install_reports() -> Result<()> {
    miette::set_hook(Box::new(narrate))?;
    Ok(())
}

pub fn check(text: &str) -> Result<usize> {
    text.lines()
        .position(|l| l.trim().is_empty())
        .map_or(Ok(text.lines().count()), |n| {
            Err(miette!("empty line {}", n + 1))
        })
}

/// The embedding API: the host may have installed its own handler.
pub fn embed(text: &str) -> Result<usize> {
    let installed = miette::set_hook(Box::new(narrate)); // TRAP miette-t1: `if let Err` below reports and carries on
    if let Err(e) = installed {
        eprintln!("keeping the host's report handler: {e}");
    }
    check(text)
}

/// The command-line entry point.
pub fn run(text: &str) -> Result<usize> {
    install_reports()?; // BUG miette-1: main already installed the hook: `set_hook` returns Err(InstallError) and `?` ends main (miette-7.6.0/src/eyreish/mod.rs:84)
    check(text)
}
