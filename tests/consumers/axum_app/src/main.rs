mod handlers;

use axum::routing::{get, post};
use axum::Router;

/// The API's routes, as axum's README chains them.
fn api() -> Router {
    Router::new()
        .route("/users", get(handlers::list_users))
        .route("/users", post(handlers::create_user)) // TRAP axum-t1: same path, another method: axum merges the method routers
        .route("/health", get(handlers::health))
}

fn app() -> Router {
    Router::new()
        .route("/", get(handlers::home))
        .nest("/api", api())
        .route("/health", get(handlers::health)) // TRAP axum-t2: `/health` of this router; the nested one is `/api/health`
        // The redesign, added at the end of the chain.
        .route("/", get(handlers::home_v2)) // BUG axum-1: `GET /` is already routed: `route` panics "Overlapping method route. Handler for `GET /` already exists" (axum-0.8.9/src/routing/method_routing.rs:1055)
}

fn status() -> Router {
    // Two GET handlers on one method router.
    Router::new().route("/status", get(handlers::health).get(handlers::home)) // BUG axum-2: `MethodRouter::get` twice panics "Overlapping method route. Cannot add two method routes that both handle `GET`" (axum-0.8.9/src/routing/method_routing.rs:841)
}

fn main() {
    let _api = api();
    let _second = api(); // TRAP axum-t3: another `Router` object, where the routes are new
    if std::env::args().any(|a| a == "--status") {
        let _ = status();
    }
    let _app = app();
    println!("router built");
}
