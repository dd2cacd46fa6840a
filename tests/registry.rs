//! The lint list, the modules in `src/lints/` and the folders in `lints/` agree.

use std::path::PathBuf;

use backend_lint::lints::LINTS;

fn names_in(dir: &str, keep: impl Fn(&std::fs::DirEntry) -> Option<String>) -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| keep(&e.unwrap()))
        .collect();
    names.sort();
    names
}

#[test]
fn lints_modules_and_folders_agree() {
    let listed: Vec<String> = LINTS.iter().map(|l| l.name().to_string()).collect();
    let mut sorted = listed.clone();
    sorted.sort();
    assert_eq!(listed, sorted, "LINTS must be in alphabetical order");

    let modules = names_in("src/lints", |e| {
        let name = e.file_name().to_string_lossy().to_string();
        let stem = name.strip_suffix(".rs")?;
        (stem != "mod").then(|| stem.to_string())
    });
    assert_eq!(modules, listed, "src/lints/*.rs and LINTS differ");

    let folders = names_in("lints", |e| {
        e.file_type()
            .unwrap()
            .is_dir()
            .then(|| e.file_name().to_string_lossy().to_string())
    });
    assert_eq!(folders, listed, "lints/*/ and LINTS differ");
}

#[test]
fn lint_names_are_snake_case_and_summaries_rustc_style() {
    for lint in LINTS {
        assert!(
            lint.name()
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '_'),
            "{} is not snake_case",
            lint.name()
        );
        assert!(
            !lint.summary.ends_with('.'),
            "{}: summary ends with a period",
            lint.name()
        );
        assert!(
            lint.summary.starts_with(|c: char| c.is_lowercase()),
            "{}: summary must start lowercase",
            lint.name()
        );
    }
}

/// The lints' modules are declared by the lint table's macro, which rustfmt
/// does not look into: `cargo fmt` leaves them alone, so they are checked here.
#[test]
fn lint_modules_are_formatted() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let files: Vec<PathBuf> = LINTS
        .iter()
        .map(|l| root.join("src/lints").join(format!("{}.rs", l.name())))
        .collect();
    let out = std::process::Command::new("rustfmt")
        .args(["--check", "--edition", "2024"])
        .args(&files)
        .current_dir(&root)
        .output()
        .expect("rustfmt runs (rustup component add rustfmt)");
    assert!(
        out.status.success(),
        "run `rustfmt --edition 2024 src/lints/*.rs`:\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
