pub fn run_jobs() {
    crate::telemetry::init_logging(); //~ initialized_twice
    for job in 0..3 {
        let _ = job;
    }
}
