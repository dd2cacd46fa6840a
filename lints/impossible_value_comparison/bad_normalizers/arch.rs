pub enum AmdArchitecture {
    Gfx11,
    Gfx94,
    Other,
}

const RDNA3: &str = "GFX11";

impl AmdArchitecture {
    // Through a `let`: `norm` holds no uppercase letter.
    pub fn parse(arg: &str) -> Result<Self, String> {
        let norm = arg.to_lowercase();
        if norm.starts_with(RDNA3) { //~ impossible_value_comparison
            Ok(AmdArchitecture::Gfx11)
        } else if norm == "GFX94" { //~ impossible_value_comparison
            Ok(AmdArchitecture::Gfx94)
        } else {
            Ok(AmdArchitecture::Other)
        }
    }

    // Every comparison form: `match` arms, `matches!`, `.eq(..)`, `strip_prefix`.
    pub fn from_env(name: &str) -> Self {
        match name.trim().to_ascii_lowercase().as_str() {
            "gfx11" => AmdArchitecture::Gfx11,
            "Gfx94" => AmdArchitecture::Gfx94, //~ impossible_value_comparison
            _ => AmdArchitecture::Other,
        }
    }

    pub fn is_mi300(name: &str) -> bool {
        let upper = name.to_uppercase();
        matches!(upper.as_str(), "MI300" | "mi300x") //~ impossible_value_comparison
            || upper.eq("gfx942") //~ impossible_value_comparison
            || upper.strip_prefix("gfx").is_some() //~ impossible_value_comparison
    }
}

// The uppercase spelling in an arm of its own never runs.
pub fn ws_protocol(input: &str) -> u8 {
    let sanitized = input.to_lowercase();
    match sanitized.as_ref() {
        "ws" => 1,
        "WSS" => 2, //~ impossible_value_comparison
        _ => 0,
    }
}
