//! The application's routes, split by area as a growing service does.

use matchit::{InsertError, Router};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handler {
    Home,
    ListUsers,
    ShowUser,
    UserPosts,
    Admin,
    AdminUser,
    Static,
}

pub fn user_routes(router: &mut Router<Handler>) -> Result<(), InsertError> {
    router.insert("/users", Handler::ListUsers)?;
    router.insert("/users/{id}", Handler::ShowUser)?;
    router.insert("/users/{id}/posts", Handler::UserPosts)?; // TRAP matchit-t1: a longer route, no conflict with `/users/{id}`
    Ok(())
}

pub fn admin_routes(router: &mut Router<Handler>) -> Result<(), InsertError> {
    router.insert("/admin", Handler::Admin)?;
    // Copied from user_routes when the admin view of a user was added.
    router.insert("/users/{user_id}", Handler::AdminUser)?; // BUG matchit-2: `/users/{id}` is already a route: parameter names are normalized, so `insert` returns Err(Conflict) (matchit-0.8.4/src/tree.rs:112)
    Ok(())
}

pub fn static_routes(router: &mut Router<Handler>) -> Result<(), InsertError> {
    router.insert("/static/{*path}", Handler::Static)?;
    Ok(())
}
