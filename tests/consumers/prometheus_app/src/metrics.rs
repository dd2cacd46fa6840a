//! The service's metrics, registered on the service's registry.

use prometheus::{IntCounter, IntCounterVec, Opts, Registry};

pub struct HttpMetrics {
    pub requests: IntCounter,
    pub by_status: IntCounterVec,
}

impl HttpMetrics {
    pub fn new() -> HttpMetrics {
        HttpMetrics {
            requests: IntCounter::new("http_requests_total", "HTTP requests served").unwrap(),
            by_status: IntCounterVec::new(
                Opts::new("http_responses_total", "HTTP responses by status"),
                &["status"],
            )
            .unwrap(),
        }
    }

    pub fn register(&self, registry: &Registry) -> prometheus::Result<()> {
        registry.register(Box::new(self.requests.clone()))?;
        registry.register(Box::new(self.by_status.clone()))?;
        Ok(())
    }
}

/// The per-handler counters: one name, told apart by a constant label.
pub fn handler_counters(registry: &Registry) -> prometheus::Result<Vec<IntCounter>> {
    let home = IntCounter::with_opts(
        Opts::new("handler_calls_total", "calls by handler").const_label("handler", "home"),
    )?;
    let users = IntCounter::with_opts(
        Opts::new("handler_calls_total", "calls by handler").const_label("handler", "users"),
    )?;
    registry.register(Box::new(home.clone()))?;
    registry.register(Box::new(users.clone()))?; // TRAP prometheus-t1: same name, another constant label value: another descriptor id, accepted
    Ok(vec![home, users])
}
