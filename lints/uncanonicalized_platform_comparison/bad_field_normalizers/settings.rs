pub struct Settings {
    /// As written: "LRU", "Least-Recent", " lfu "...
    pub policy: String,
    /// As written: "US", "europe", "eu-west"...
    pub region: String,
}

/// One spelling per policy: trimmed, lower case, dashes as underscores.
pub fn policy_key(raw: &str) -> String {
    raw.trim().to_lowercase().replace('-', "_")
}

/// Region names as the provider spells them.
pub fn canonical_region(raw: &str) -> String {
    match raw.trim().to_ascii_lowercase().as_str() {
        "us" | "us_east" | "useast" => "us-east".to_string(),
        "eu" | "europe" => "eu-west".to_string(),
        other => other.to_string(),
    }
}

pub fn load() -> Settings {
    Settings {
        policy: std::env::var("CACHE_POLICY").unwrap_or_else(|_| "LRU".into()),
        region: std::env::var("CACHE_REGION").unwrap_or_default(),
    }
}
