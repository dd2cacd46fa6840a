// Singletons reached once per path, or with the second failure ignored.
use std::sync::atomic::{AtomicUsize, Ordering};

static STATE: AtomicUsize = AtomicUsize::new(0);

#[derive(Debug)]
pub struct SetLoggerError;

pub fn set_logger() -> Result<(), SetLoggerError> {
    match STATE.compare_exchange(0, 1, Ordering::Acquire, Ordering::Relaxed) {
        Ok(_) => Ok(()),
        Err(_) => Err(SetLoggerError),
    }
}

/// Idempotent: the loser returns, no error.
pub fn init_once() {
    if STATE
        .compare_exchange(0, 1, Ordering::SeqCst, Ordering::SeqCst)
        .is_err()
    {
        return;
    }
}

pub fn ignored() {
    set_logger().ok().unwrap_or(());
    let _ = set_logger();
    set_logger().ok();
    if let Err(_) = set_logger() {}
    set_logger().unwrap_or(());
    init_once();
    init_once();
}

pub fn exclusive(json: bool) {
    match json {
        true => set_logger().expect("json"),
        false => set_logger().expect("text"),
    }
}

pub fn early_return(json: bool) {
    if json {
        set_logger().expect("json");
        return;
    }
    set_logger().expect("text");
}

pub fn cfgs() {
    #[cfg(feature = "json")]
    set_logger().expect("json");
    #[cfg(not(feature = "json"))]
    set_logger().expect("text");
}

/// A closure may run later, or never: not followed.
pub fn in_closure() -> impl Fn() {
    set_logger().expect("now");
    || set_logger().expect("later")
}

static CONFIG: std::sync::OnceLock<String> = std::sync::OnceLock::new();

pub fn once_lock_arms(json: bool) {
    if json {
        CONFIG.set(String::from("json")).unwrap();
    } else {
        CONFIG.set(String::from("text")).unwrap();
    }
    let _ = CONFIG.set(String::from("again"));
}

static BACKEND: AtomicUsize = AtomicUsize::new(0);

/// A guard: the state comes back when it drops (llama-cpp-2's
/// `LlamaBackend`), so a second `init` after the first dropped succeeds.
pub struct Backend;

#[derive(Debug)]
pub struct AlreadyInitialized;

impl Backend {
    pub fn init() -> Result<Backend, AlreadyInitialized> {
        match BACKEND.compare_exchange(0, 1, Ordering::SeqCst, Ordering::SeqCst) {
            Ok(_) => Ok(Backend),
            Err(_) => Err(AlreadyInitialized),
        }
    }
}

impl Drop for Backend {
    fn drop(&mut self) {
        match BACKEND.compare_exchange(1, 0, Ordering::SeqCst, Ordering::SeqCst) {
            Ok(_) => {}
            Err(_) => unreachable!("a backend exists"),
        }
    }
}

pub fn probe_then_init() -> Result<(), AlreadyInitialized> {
    let probe = Backend::init()?;
    drop(probe);
    let _backend = Backend::init()?;
    Ok(())
}

/// One of two `cfg`-exclusive statements runs (rhai's `set_hashing_seed`).
pub fn set_seed(seed: u64) -> Result<(), SetLoggerError> {
    #[cfg(feature = "std")]
    return set_logger().map(|_| drop(seed));

    #[cfg(not(feature = "std"))]
    return set_logger();
}

/// probe-rs's `setup_logging`: the `else` of a `let`-`else` always leaves,
/// so the install in it and the one after it never both run.
pub fn let_else(path: Option<&str>) -> Result<Option<String>, SetLoggerError> {
    let Some(path) = path else {
        set_logger()?;
        return Ok(None);
    };
    set_logger()?;
    Ok(Some(path.to_string()))
}

/// The second error is looked at and the program goes on.
pub fn second_error_handled() {
    set_logger().expect("logger");
    if let Err(e) = set_logger() {
        eprintln!("logger already set: {e:?}");
    }
}

/// Two closures: whether and when each runs is not known.
pub fn two_closures() -> (impl Fn(), impl Fn()) {
    (|| set_logger().expect("a"), || set_logger().expect("b"))
}
