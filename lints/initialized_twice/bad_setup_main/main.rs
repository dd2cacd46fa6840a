// An installer's `main` sets its logger up, then hands over to a mode's own
// `main` (`setup_mode::main`), which sets it up again: a helper named
// `main` is a singleton as any other, and its callers are read for it.
mod logger;
mod setup_mode;

fn main() {
    logger::init_global().expect("the logger is set once");
    if let Err(e) = dispatch(std::env::args().nth(1).as_deref()) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn dispatch(arg: Option<&str>) -> Result<(), logger::AlreadySet> {
    match arg {
        Some("--version") => {
            println!("0.1.0");
            Ok(())
        }
        _ => setup_mode::main(),
    }
}
