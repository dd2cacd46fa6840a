//! A web framework's router: registering a path again replaces its handler
//! (the documented way to override a default route). The test registers
//! `/health` twice and checks the second handler answers.

pub mod router;

#[cfg(test)]
mod tests {
    use crate::router::Router;

    fn ok() -> u16 {
        200
    }

    fn busy() -> u16 {
        503
    }

    #[test]
    fn a_route_registered_again_replaces_the_first() {
        let mut router = Router::default();
        router.register_route("/health", ok).unwrap();
        router.register_route("/health", busy).unwrap();
        assert_eq!(router.call("/health"), Some(503));
    }
}
