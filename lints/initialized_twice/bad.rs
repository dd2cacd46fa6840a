// Singletons defined here, each reached twice on one path.
use std::sync::Once;
use std::sync::atomic::{AtomicUsize, Ordering};

static STATE: AtomicUsize = AtomicUsize::new(0);
static HOOK: Once = Once::new();

#[derive(Debug)]
pub struct SetLoggerError;

#[derive(Debug)]
pub struct HookError;

/// `log::set_logger`'s shape: the loser of the exchange gets `Err`.
pub fn set_logger() -> Result<(), SetLoggerError> {
    match STATE.compare_exchange(0, 1, Ordering::Acquire, Ordering::Relaxed) {
        Ok(_) => Ok(()),
        Err(_) => Err(SetLoggerError),
    }
}

/// `rayon_core`'s shape: a preset `Err` only the first `call_once` replaces.
pub fn install_hook() -> Result<(), HookError> {
    let mut result = Err(HookError);
    HOOK.call_once(|| result = Ok(()));
    result
}

fn init_logging() {
    set_logger().expect("logger"); //~ initialized_twice
}

fn start_server() {
    init_logging(); //~ initialized_twice
}

pub fn two_calls() -> Result<(), SetLoggerError> {
    set_logger()?;
    set_logger()?; //~ initialized_twice
    Ok(())
}

pub fn in_a_loop(workers: usize) {
    for _ in 0..workers {
        install_hook().unwrap(); //~ initialized_twice
    }
}

pub fn helper_from_two_places() {
    init_logging();
    start_server();
}

pub fn both_arms_then_again(verbose: bool) {
    if verbose {
        set_logger().expect("verbose");
    } else {
        set_logger().expect("quiet");
    }
    init_logging();
}

static CONFIG: std::sync::OnceLock<String> = std::sync::OnceLock::new();

pub fn std_once_lock() {
    CONFIG.set(String::from("a")).unwrap();
    CONFIG.set(String::from("b")).unwrap(); //~ initialized_twice
}

/// Installs on both of its paths (the `let`-`else`'s and the one after):
/// a singleton itself.
pub fn setup_logging(path: Option<&str>) -> Result<Option<String>, SetLoggerError> {
    let Some(path) = path else {
        set_logger()?;
        return Ok(None);
    };
    set_logger()?;
    Ok(Some(path.to_string()))
}

pub fn logging_set_up_twice() -> Result<(), SetLoggerError> {
    setup_logging(None)?;
    setup_logging(Some("log.txt"))?; //~ initialized_twice
    Ok(())
}

pub fn exits_on_the_second_error() {
    set_logger().expect("logger");
    if let Err(e) = set_logger() { //~ initialized_twice
        eprintln!("error: {e:?}");
        std::process::exit(1);
    }
}

/// Two calls in one `async` block run in order when it runs.
pub fn in_one_async_block() -> impl std::future::Future<Output = Result<(), SetLoggerError>> {
    async {
        set_logger()?;
        set_logger()?; //~ initialized_twice
        Ok(())
    }
}
