mod index;
mod pool;

use rayon::prelude::*;

/// A batch tool that counts first, then sizes the pool.
fn late() {
    let total: u64 = (1..=100u64).into_par_iter().sum();
    println!("{total}");
    pool::configure_pool(4); // BUG rayon-2: the `into_par_iter` above started the default global pool, so `build_global` returns Err(GlobalPoolAlreadyInitialized) (rayon-core-1.13.0/src/registry.rs:191)
}

fn main() {
    if std::env::args().any(|a| a == "--late") {
        return late();
    }
    pool::configure_pool(4);

    // Private pools: each `build` is a new pool.
    let a = pool::private_pool(2);
    let b = pool::private_pool(2); // TRAP rayon-t1: `build` makes another pool object, nothing global
    println!(
        "{} {}",
        a.install(|| rayon::current_num_threads()),
        b.current_num_threads()
    );

    // A library that sizes the pool only when nobody did.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(8)
        .build_global(); // TRAP rayon-t2: the `Err` is discarded on purpose

    println!("{}", index::rebuild(&["a", "bb", "ccc"]));
}
