mod routes;

use matchit::Router;
use routes::Handler;

fn build() -> Result<Router<Handler>, matchit::InsertError> {
    let mut router = Router::new();
    router.insert("/", Handler::Home)?;
    routes::user_routes(&mut router)?;
    routes::static_routes(&mut router)?;
    if std::env::var_os("ADMIN").is_some() {
        routes::admin_routes(&mut router)?;
    }
    // The home page again, added by a later change that did not see the first.
    router.insert("/", Handler::Home)?; // BUG matchit-1: `/` already holds a value: `insert` returns Err(Conflict) (matchit-0.8.4/src/tree.rs:112)
    Ok(router)
}

fn main() {
    // A second router object: its routes are its own.
    let mut api = Router::new();
    api.insert("/", Handler::Home).unwrap();
    api.insert("/users/{id}", Handler::ShowUser).unwrap(); // TRAP matchit-t2: another `Router` object, where `/users/{id}` is new

    // Removing a route, then inserting it again, is allowed.
    api.remove("/users/{id}");
    api.insert("/users/{id}", Handler::AdminUser).unwrap(); // TRAP matchit-t3: the route was removed just before

    match build() {
        Ok(router) => println!("{:?}", router.at("/users/7").map(|m| *m.value)),
        Err(e) => {
            eprintln!("cannot build the router: {e}");
            std::process::exit(1);
        }
    }
}
