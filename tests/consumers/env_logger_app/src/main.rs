fn main() {
    env_logger_app::init_logs();
    env_logger_app::init_logs_quietly();
    let jobs = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "build, test".to_string());
    env_logger_app::run(&jobs);
}
