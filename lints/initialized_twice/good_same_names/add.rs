use crate::acl;

pub fn command(name: &str) {
    crate::paths::resolve();
    run(name)
}

fn run(name: &str) {
    // The permission's `command`, not the capability's.
    acl::permission::add::command(name);
}
