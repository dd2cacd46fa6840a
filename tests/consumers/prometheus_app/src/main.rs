mod metrics;

use prometheus::{register_int_counter, Encoder, IntCounter, Registry, TextEncoder};

use crate::metrics::HttpMetrics;

fn setup(registry: &Registry) -> prometheus::Result<HttpMetrics> {
    let http = HttpMetrics::new();
    http.register(registry)?;
    metrics::handler_counters(registry)?;
    Ok(http)
}

fn start_admin(registry: &Registry) -> prometheus::Result<()> {
    // The admin server counts requests too, under the same metric name.
    let admin_requests = IntCounter::new("http_requests_total", "admin requests")?;
    registry.register(Box::new(admin_requests))?; // BUG prometheus-1: `http_requests_total` is already registered: Err(AlreadyReg) (prometheus-0.13.4/src/registry.rs:48)
    Ok(())
}

fn process_metrics() -> prometheus::Result<()> {
    // The default registry, through the crate's macro, as its README shows.
    let started = register_int_counter!("process_starts_total", "process starts")?;
    started.inc();
    Ok(())
}

fn main() -> prometheus::Result<()> {
    let registry = Registry::new();
    let http = setup(&registry)?;
    http.requests.inc();

    // A second registry object (a test registry): the same names are new there.
    let scratch = Registry::new();
    HttpMetrics::new().register(&scratch)?; // TRAP prometheus-t2: another `Registry` object, where the names are new

    // Unregister, then register again: allowed.
    registry.unregister(Box::new(http.requests.clone()))?;
    registry.register(Box::new(http.requests.clone()))?; // TRAP prometheus-t3: unregistered just before

    process_metrics()?;
    if std::env::args().any(|a| a == "--restart") {
        process_metrics()?; // BUG prometheus-2: the macro registers `process_starts_total` on the default registry again: Err(AlreadyReg) (prometheus-0.13.4/src/registry.rs:48)
    }

    start_admin(&registry)?;

    let mut out = Vec::new();
    TextEncoder::new().encode(&registry.gather(), &mut out)?;
    print!("{}", String::from_utf8_lossy(&out));
    Ok(())
}
