//! `backend-lint init`: a commented `backend-lint.toml` with what was learned.

mod common;
use common::{bin, package, run_cmd as run, write};

/// A registry whose `insert` rejects a second key, wrapped by `define`, and a
/// function returning a raw platform: what `config` lists as learned.
const LEARNING: &str = r#"use std::collections::HashMap;
pub struct Linker { map: HashMap<(String, String), u32> }
impl Linker {
    fn insert(&mut self, key: (String, String), f: u32) -> Result<(), String> {
        if self.map.contains_key(&key) {
            return Err("defined twice".into());
        }
        self.map.insert(key, f);
        Ok(())
    }
    pub fn define(&mut self, module: &str, name: &str, f: u32) -> Result<(), String> {
        self.insert((module.to_string(), name.to_string()), f)
    }
}
pub struct Device;
impl Device {
    pub fn platform(&self) -> String { "gpu".into() }
}
pub fn platform_of(d: &Device) -> String {
    d.platform()
}
"#;

/// `# key = value` lines uncommented: every setting `init` wrote at its
/// built-in value, and every suggestion, in force.
fn uncommented(text: &str) -> String {
    let setting = |rest: &str| {
        rest.split_once(" = ").is_some_and(|(key, _)| {
            !key.is_empty()
                && key
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-\"*/.".contains(c))
        })
    };
    text.lines()
        .map(|l| match l.strip_prefix("# ") {
            Some(rest) if setting(rest) => rest,
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn init_writes_a_commented_configuration_that_parses_back() {
    let dir = package(None);
    write(dir.path(), "src/lib.rs", LEARNING);
    let (out, err, code) = run(bin(&dir.path().join("src")).args(["init"]));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    // At the package root, not in the folder it was run from.
    let path = dir.path().join("backend-lint.toml");
    assert!(
        err.contains("wrote") && err.contains("backend-lint.toml"),
        "{err}"
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(!dir.path().join("src/backend-lint.toml").exists());

    // Everything is commented out: the file changes nothing ...
    assert!(
        text.lines().all(|l| l.is_empty()
            || l.starts_with('#')
            || (l.starts_with('[') && l.ends_with(']'))),
        "{text}"
    );
    let (before, _, _) = run(bin(dir.path()).args(["config", "--config", "/dev/null"]));
    let (after, err, code) = run(bin(dir.path()).args(["config"]));
    assert_eq!(code, 0, "{err}");
    let body = |t: &str| t.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(body(&before), body(&after));
    // ... each key at its built-in value, the lints at their default levels ...
    for line in [
        "# exclude = []",
        "# duplicate_registration = \"deny\"",
        "# unused_suppression = \"warn\"",
        "# canonical = [\"cpu\", \"tpu\", \"cuda\", \"rocm\", \"oneapi\", \"metal\"]",
        "# aliases = { gpu = [\"cuda\", \"rocm\", \"oneapi\"] }",
        "# check-tests = false",
        "# calls = [\"lower\", \"lower_*\", \"!lower_bound\"]",
    ] {
        assert!(text.lines().any(|l| l == line), "{line}:\n{text}");
    }
    // ... and what was learned, with where, as suggestions.
    assert!(text.contains("`define` (src/lib.rs:11)"), "{text}");
    assert!(text.contains("`platform_of` (src/lib.rs:19)"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("# extend-functions = [") && l.contains("name = \"define\"")),
        "{text}"
    );
    // `insert` was learned on `self` only: listed, every map's `insert`
    // would register. It is described, not suggested.
    assert!(text.contains("`insert` (src/lib.rs:4)"), "{text}");
    assert!(!text.contains("name = \"insert\""), "{text}");
    assert!(
        text.lines()
            .any(|l| l == "# extend-sources = [\"platform_of\"]"),
        "{text}"
    );

    // Every setting uncommented is a valid configuration too.
    let all = write(dir.path(), "all.toml", uncommented(&text));
    let (shown, err, code) =
        run(bin(dir.path()).args(["config", "--config", all.to_str().unwrap()]));
    assert_eq!(code, 0, "{err}\n{}", uncommented(&text));
    assert!(shown.contains("\"platform_of\""), "{shown}");
    let (_, err, code) = run(bin(dir.path()).args(["check", "--config", all.to_str().unwrap()]));
    assert_ne!(code, 2, "{err}");
}

#[test]
fn init_refuses_to_replace_a_configuration_unless_forced() {
    let dir = package(Some("[lints]\nduplicate_registration = \"allow\"\n"));
    let path = dir.path().join("backend-lint.toml");
    let (_, err, code) = run(bin(dir.path()).args(["init"]));
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error: `backend-lint.toml` already exists") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "[lints]\nduplicate_registration = \"allow\"\n"
    );
    let (_, err, code) = run(bin(dir.path()).args(["init", "--force"]));
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&path).unwrap().starts_with("# "));

    // Another configuration of the folder counts too.
    let dir = package(None);
    write(dir.path(), ".backend-lint.toml", "");
    let (_, err, code) = run(bin(dir.path()).args(["init"]));
    assert_eq!(code, 2);
    assert!(err.contains("`.backend-lint.toml` already exists"), "{err}");
    // Forced, the new file comes first, and the old one is said to be unread.
    let (_, err, code) = run(bin(dir.path()).args(["init", "--force"]));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(
            "note: `.backend-lint.toml` is no longer read: `backend-lint.toml` comes first"
        ),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join(".backend-lint.toml")).unwrap(),
        ""
    );
    let dir = package(None);
    let manifest = dir.path().join("Cargo.toml");
    let mut text = std::fs::read_to_string(&manifest).unwrap();
    text.push_str("\n[package.metadata.backend-lint]\nexclude = []\n");
    std::fs::write(&manifest, text).unwrap();
    let (_, err, code) = run(bin(dir.path()).args(["init"]));
    assert_eq!(code, 2);
    assert!(err.contains("[package.metadata.backend-lint]"), "{err}");
    assert!(!dir.path().join("backend-lint.toml").exists());
}

#[test]
fn init_never_writes_through_a_link() {
    let outside = tempfile::tempdir().unwrap();
    let target = write(outside.path(), "precious.toml", "keep me\n");
    let dir = package(None);
    let link = dir.path().join("backend-lint.toml");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let (_, err, code) = run(bin(dir.path()).args(["init"]));
    assert_eq!(code, 2, "{err}");
    let (_, err, code) = run(bin(dir.path()).args(["init", "--force"]));
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me\n");
    assert!(!link.symlink_metadata().unwrap().is_symlink());
    assert!(std::fs::read_to_string(&link).unwrap().starts_with("# "));
}

#[test]
fn init_writes_at_the_workspace_root_of_a_member() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "Cargo.toml", "[workspace]\nmembers = [\"a\"]\n");
    write(
        dir.path(),
        "a/Cargo.toml",
        "[package]\nname = \"a\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    write(dir.path(), "a/src/lib.rs", LEARNING);
    let (_, err, code) = run(bin(dir.path()).args(["init", "a/src"]));
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(dir.path().join("backend-lint.toml")).unwrap();
    assert!(text.contains("`define` (a/src/lib.rs:11)"), "{text}");
    assert!(!dir.path().join("a/backend-lint.toml").exists());
    // A path that does not exist is an error.
    let (_, err, code) = run(bin(dir.path()).args(["init", "nowhere"]));
    assert_eq!(code, 2);
    assert!(err.contains("`nowhere` does not exist"), "{err}");
}

#[test]
fn init_forced_over_a_broken_configuration_still_learns_from_the_code() {
    // The file written replaces it: the code is read as with the built-in
    // configuration, which is what applies once the file is written.
    let dir = package(Some("[lints]\nnope = \"deny\"\n"));
    write(dir.path(), "src/lib.rs", LEARNING);
    let (_, err, code) = run(bin(dir.path()).args(["init", "--force"]));
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(dir.path().join("backend-lint.toml")).unwrap();
    assert!(text.contains("`define` (src/lib.rs:11)"), "{text}");
    let (_, err, code) = run(bin(dir.path()).args(["check"]));
    assert_ne!(code, 2, "{err}");
}
