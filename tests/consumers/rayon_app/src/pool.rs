//! The global thread pool, configured as rayon's docs show.

use rayon::ThreadPoolBuilder;

/// Size the global pool: `build_global` succeeds once per process, and only
/// before anything has used the global pool.
pub fn configure_pool(threads: usize) {
    ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("worker-{i}"))
        .build_global()
        .expect("the global thread pool is already initialized");
}

/// A pool of its own for one job: `build` makes a new pool every time.
pub fn private_pool(threads: usize) -> rayon::ThreadPool {
    ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool")
}
