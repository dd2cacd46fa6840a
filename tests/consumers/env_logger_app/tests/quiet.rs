//! Integration tests with the documented test setup: `is_test(true)` and
//! `try_init`, its `Err` ignored, in every test.

use env_logger_app::parse_jobs;

fn quiet_test_logs() {
    let _ = env_logger::builder().is_test(true).try_init();
}

#[test]
fn parses_two_jobs() {
    quiet_test_logs();
    assert_eq!(parse_jobs("a, b"), vec!["a", "b"]);
}

#[test]
fn parses_no_job() {
    quiet_test_logs(); // TRAP env_logger-t2: `try_init` with the `Err` discarded, in each test: the documented pattern for tests
    assert!(parse_jobs(" , ").is_empty());
}
