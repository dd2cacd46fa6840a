// Where a singleton is reached from matters as much as how often:
// - a closure a static's `call_once` runs once installs on the first call
//   only (`shared_stop_flag`, the shape of a ctrlc handler shared by a
//   job runner): calling it again is fine, calling the singleton another
//   way after it fails;
// - a helper reaching it under an `if` (`if audit { init_file_logging() }`)
//   fails on that branch when the logger is installed already;
// - a `return` in a loop runs its call once;
// - a branch under a test of the global's state (`if !installed()`) is
//   not known to fail.
mod logs;
mod signals;

pub struct Config {
    pub audit: bool,
    pub batch: bool,
}

pub fn main_loop(cfg: &Config) -> Result<(), logs::Error> {
    logs::init_logging()?;
    signals::shared_stop_flag();
    signals::shared_stop_flag();
    run(cfg)?;
    signals::drain();
    Ok(())
}

fn run(cfg: &Config) -> Result<(), logs::Error> {
    if cfg.audit {
        logs::init_file_logging()?;
    }
    for _ in 0..3 {
        if cfg.batch {
            return batch();
        }
    }
    Ok(())
}

fn batch() -> Result<(), logs::Error> {
    if !logs::installed() {
        logs::init_logging()?;
    }
    Ok(())
}

/// Both loggers, one after the other: the second `apply` fails.
pub fn start_both() -> Result<(), logs::Error> {
    logs::init_console()?;
    logs::init_audit()
}
