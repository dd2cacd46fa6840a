use std::env;

pub fn static_link() -> bool {
    let target_os = env::var("CARGO_CFG_TARGET_OS").unwrap().to_lowercase();
    target_os.contains("Windows") //~ impossible_value_comparison
}

pub fn lib_name(triple: &str) -> String {
    let os = triple.replace("darwin", "macos");
    if os == "darwin" { //~ impossible_value_comparison
        "libonnxruntime.dylib".to_string()
    } else {
        "libonnxruntime.so".to_string()
    }
}

pub fn kernel_name(path: &str) -> String {
    let name = path.replace("::", "-");
    if name.ends_with("::") { //~ impossible_value_comparison
        return name;
    }
    name.replace('<', "")
}

pub fn is_data_cache(kind: &str) -> bool {
    kind.trim() == "Data\n" //~ impossible_value_comparison
}

pub fn yes(input: &str) -> bool {
    let answer: String = input.trim().to_lowercase();
    ["yes", "Y"].contains(&answer.as_str()) //~ impossible_value_comparison
}
