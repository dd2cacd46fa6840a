mod host;

use host::HostState;
use wasmi::{Engine, Linker};

fn base_linker(engine: &Engine) -> Result<Linker<HostState>, wasmi::Error> {
    let mut linker = Linker::new(engine);
    host::define_logging(&mut linker)?;
    host::define_clock(&mut linker)?;
    Ok(linker)
}

fn main() -> Result<(), wasmi::Error> {
    let engine = Engine::default();

    // A second linker object: its definitions are its own.
    let mut sandbox = Linker::<HostState>::new(&engine);
    host::define_logging(&mut sandbox)?; // TRAP wasmi-t2: another `Linker` object, where `env`/`log` is new

    let mut linker = base_linker(&engine)?;
    host::define_debug_shadowing(&mut linker)?;

    let mut plain = base_linker(&engine)?;
    if std::env::args().any(|a| a == "--debug") {
        host::define_debug(&mut plain)?;
    }
    plain
        .func_wrap("env", "abort", || eprintln!("guest aborted"))?
        .func_wrap("env", "abort", || eprintln!("guest aborted"))?; // BUG wasmi-2: the same chain defines `env`/`abort` twice: the second `func_wrap` returns Err(DuplicateDefinition) (wasmi-0.40.0/src/linker.rs:891)
    Ok(())
}
