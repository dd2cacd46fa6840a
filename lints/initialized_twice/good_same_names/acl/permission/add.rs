/// Adds a permission; the app's folder is resolved by the caller.
pub fn command(name: &str) {
    println!("permission {name}");
}
