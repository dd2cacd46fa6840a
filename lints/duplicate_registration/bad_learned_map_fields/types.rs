use std::collections::HashMap;

pub struct Response {
    pub headers: HashMap<&'static str, String>,
    pub cached: bool,
}
