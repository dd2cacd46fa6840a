/// Creates a capability: resolves the app's folder first.
pub fn command(name: &str) {
    crate::paths::resolve();
    println!("capability {name}");
}
