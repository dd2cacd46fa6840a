// Tests of one binary each install the logger from their own test: each
// test is its own entry point, not reported (cargo runs them in one process,
// so the second does panic: see the README's known limitations).
use std::sync::atomic::{AtomicUsize, Ordering};

static STATE: AtomicUsize = AtomicUsize::new(0);

fn init() {
    if STATE
        .compare_exchange(0, 1, Ordering::SeqCst, Ordering::SeqCst)
        .is_err()
    {
        panic!("initialized twice");
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn first() {
        super::init();
    }

    #[test]
    fn second() {
        super::init();
    }
}
