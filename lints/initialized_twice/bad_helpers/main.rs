// An init helper called from `main` and again from a setup function, its
// singleton reached through a builder chain
// (`SubscriberBuilder::default().with_target(..).init()`, the shape of
// tracing-subscriber, written as a module of this crate).
mod jobs;
mod subscriber;
mod telemetry;

fn main() {
    telemetry::init_logging();
    jobs::run_jobs();
}
