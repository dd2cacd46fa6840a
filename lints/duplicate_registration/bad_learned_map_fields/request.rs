use std::collections::HashMap;

pub struct Request {
    headers: HashMap<&'static str, String>,
    json: bool,
}

impl Request {
    pub fn prepare(&mut self) {
        self.headers.insert("accept", "*/*".to_string());
        self.headers.insert("user-agent", "client/1.0".to_string());
        if self.json {
            self.headers.insert("content-type", "application/json".to_string());
        }
        // Whatever the defaults, the caller's choice wins.
        self.headers.insert("accept", self.accept());
    }

    fn accept(&self) -> String {
        match self.json {
            true => "application/json".to_string(),
            false => "*/*".to_string(),
        }
    }
}
