use crate::settings::{Settings, canonical_region, policy_key};

pub fn capacity(s: &Settings) -> usize {
    match policy_key(&s.policy).as_str() {
        "lru" => 1024,
        "least_recent" => 512,
        _ => 64,
    }
}

/// "Least-Recent" from the environment never pins.
pub fn pins_hot_keys(s: &Settings) -> bool {
    s.policy == "least_recent" //~ uncanonicalized_platform_comparison
}

pub fn endpoint(s: &Settings) -> &'static str {
    if canonical_region(&s.region) == "eu-west" {
        "https://eu.cache.example"
    } else {
        "https://us.cache.example"
    }
}

/// "US" or "useast" from the environment is never replicated.
pub fn replicated(s: &Settings) -> bool {
    match s.region.as_str() { //~ uncanonicalized_platform_comparison
        "us-east" => true,
        _ => false,
    }
}
