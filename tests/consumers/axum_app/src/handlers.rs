pub async fn home() -> &'static str {
    "home"
}

pub async fn home_v2() -> &'static str {
    "home, new design"
}

pub async fn list_users() -> &'static str {
    "users"
}

pub async fn create_user() -> &'static str {
    "created"
}

pub async fn health() -> &'static str {
    "ok"
}
