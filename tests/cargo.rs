//! `cargo backend-lint` through the real `cargo` binary, on a temporary
//! workspace of two member crates whose dependencies were never fetched.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn write(dir: &Path, name: &str, contents: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, contents).unwrap();
}

/// A workspace: `engine` registers `cuda` in two files (a duplicate), `plugins`
/// registers `cuda` once (not a duplicate of `engine`'s: another package).
fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "Cargo.toml",
        "[workspace]\nmembers = [\"engine\", \"plugins\"]\nresolver = \"2\"\n",
    );
    // A dependency that is nowhere to be fetched: linting must not need it.
    write(
        root,
        "engine/Cargo.toml",
        "[package]\nname = \"engine\"\nversion = \"0.1.0\"\nedition = \"2021\"\nbuild = \"build.rs\"\n\n[dependencies]\nnot-a-real-crate-backend-lint-test = \"9.9\"\n",
    );
    // A build script that would fail loudly if it ever ran.
    write(
        root,
        "engine/build.rs",
        "fn main() { panic!(\"build scripts must not run\"); }\n",
    );
    write(
        root,
        "engine/src/lib.rs",
        "mod names;\npub fn init() { register_backend(\"cuda\", make); }\n",
    );
    write(
        root,
        "engine/src/names.rs",
        "pub const CUDA: &str = \"cuda\";\npub fn again() { register_backend(CUDA, make); }\n",
    );
    write(
        root,
        "engine/tests/devices.rs",
        "#[test]\nfn picks() { assert!(pick().iter().all(|d| canonicalize_platform(d.platform()) != \"gpu\")); }\n",
    );
    write(
        root,
        "plugins/Cargo.toml",
        "[package]\nname = \"plugins\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    write(
        root,
        "plugins/src/lib.rs",
        "pub fn init() { register_backend(\"cuda\", make); }\n",
    );
    dir
}

/// The real cargo, with this build's `cargo-backend-lint` first on PATH.
fn cargo() -> Command {
    let bin_dir = PathBuf::from(env!("CARGO_BIN_EXE_cargo-backend-lint"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.env("PATH", path);
    cmd
}

/// `cargo backend-lint ARGS` in `dir`.
fn cargo_lint(dir: &Path, args: &[&str]) -> Output {
    cargo()
        .arg("backend-lint")
        .args(args)
        .current_dir(dir)
        .env("CARGO_NET_OFFLINE", "true")
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .unwrap()
}

fn findings(out: &Output) -> Vec<(String, String)> {
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["lint"].as_str().unwrap().to_string(),
                d["span"]["file"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn lints_the_whole_workspace_from_its_root() {
    let ws = workspace();
    let out = cargo_lint(ws.path(), &["check", "--format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut found = findings(&out);
    found.sort();
    assert_eq!(
        found,
        vec![
            (
                "duplicate_registration".to_string(),
                "engine/src/names.rs".to_string()
            ),
            (
                "non_canonical_platform_literal".to_string(),
                "engine/tests/devices.rs".to_string()
            ),
        ],
        "one duplicate within `engine`, none across packages; tests are linted too"
    );
    assert!(!ws.path().join("target").exists(), "nothing was built");
}

#[test]
fn without_a_subcommand_it_checks() {
    let ws = workspace();
    let out = cargo_lint(&ws.path().join("plugins"), &[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn in_a_member_it_lints_that_member() {
    let ws = workspace();
    let out = cargo_lint(
        &ws.path().join("plugins/src"),
        &["check", "--format", "json"],
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(findings(&out), vec![]);
    let out = cargo_lint(&ws.path().join("engine"), &["check", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(findings(&out).len(), 2);
}

#[test]
fn package_selection_flags_behave_as_in_cargo() {
    let ws = workspace();
    let root = ws.path();
    let out = cargo_lint(root, &["check", "--format", "json", "-p", "plugins"]);
    assert_eq!((out.status.code(), findings(&out).len()), (Some(0), 0));
    let out = cargo_lint(
        &root.join("plugins"),
        &["check", "--format", "json", "--package", "engine"],
    );
    assert_eq!((out.status.code(), findings(&out).len()), (Some(1), 2));
    let out = cargo_lint(
        &root.join("plugins"),
        &[
            "check",
            "--format",
            "json",
            "--workspace",
            "--exclude",
            "engine",
        ],
    );
    assert_eq!((out.status.code(), findings(&out).len()), (Some(0), 0));
    let out = cargo_lint(
        &root.join("plugins"),
        &["check", "--format", "json", "--workspace"],
    );
    assert_eq!((out.status.code(), findings(&out).len()), (Some(1), 2));
    let manifest = root.join("engine/Cargo.toml");
    let out = cargo_lint(
        std::env::temp_dir().as_path(),
        &[
            "check",
            "--format",
            "json",
            "--manifest-path",
            manifest.to_str().unwrap(),
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let out = cargo_lint(root, &["check", "--exclude", "engine"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "as in cargo, --exclude needs --workspace"
    );

    let out = cargo_lint(root, &["check", "-p", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("package `nope` is not a member"));
    let out = cargo_lint(root, &["check", "-p", "engine", "engine/src/lib.rs"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "paths and package flags do not mix"
    );
}

#[test]
fn help_and_version_through_cargo() {
    let ws = workspace();
    let out = cargo_lint(ws.path(), &["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("Usage: cargo backend-lint"), "{help}");
    let out = cargo_lint(ws.path(), &["check", "--help"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("--manifest-path"));
    let out = cargo_lint(ws.path(), &["--version"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains(env!("CARGO_PKG_VERSION")));

    // `cargo help backend-lint` runs `cargo-backend-lint backend-lint --help`.
    let out = cargo().args(["help", "backend-lint"]).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Usage: cargo backend-lint"));
}

#[test]
fn given_files_are_reported_with_their_whole_package_analysed() {
    let ws = workspace();
    // The duplicate's first registration is in lib.rs, the finding in names.rs.
    let out = cargo_lint(
        ws.path(),
        &["check", "--format", "json", "engine/src/names.rs"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        findings(&out),
        vec![(
            "duplicate_registration".to_string(),
            "engine/src/names.rs".to_string()
        )]
    );
    // Only lib.rs given: the finding is in names.rs, so none is reported.
    let out = cargo_lint(
        ws.path(),
        &[
            "check",
            "--format",
            "json",
            "engine/src/lib.rs",
            "plugins/src/lib.rs",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn a_broken_manifest_is_a_clear_error() {
    let ws = workspace();
    std::fs::write(ws.path().join("plugins/Cargo.toml"), "[package\nname = ").unwrap();
    let out = cargo_lint(ws.path(), &["check"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("`cargo metadata` failed"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // Files can still be linted directly.
    let out = cargo_lint(ws.path(), &["check", "--format", "json", "engine/src"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn cargo_style_invocations_work_without_check() {
    let ws = workspace();
    let root = ws.path();
    // As the usage line says: `check` may be left out.
    let out = cargo_lint(root, &["--format", "json", "--workspace"]);
    assert_eq!((out.status.code(), findings(&out).len()), (Some(1), 2));
    let out = cargo_lint(root, &["--format", "json", "-p", "plugins"]);
    assert_eq!((out.status.code(), findings(&out).len()), (Some(0), 0));
    // `-p name@version`, and the flags cargo users pass everywhere.
    let out = cargo_lint(
        root,
        &[
            "check",
            "--format",
            "json",
            "-p",
            "engine@0.1.0",
            "--offline",
            "--locked",
            "--frozen",
        ],
    );
    assert_eq!(
        (out.status.code(), findings(&out).len()),
        (Some(1), 2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Every member excluded: nothing to check is said, not taken for clean.
    let out = cargo_lint(
        root,
        &[
            "check",
            "--workspace",
            "--exclude",
            "engine",
            "--exclude",
            "plugins",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no Rust files to check"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A checkout whose `rust-toolchain.toml` names a toolchain of its own: a
/// `cargo` script that leaves a marker file if it is ever run.
fn hostile_checkout(toolchain: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "Cargo.toml",
        "[package]\nname = \"victim\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    write(
        root,
        "src/lib.rs",
        "pub fn init() { register_backend(\"cuda\", make); register_backend(\"cuda\", make); }\n",
    );
    let marker = root.join("MARKER");
    for tool in ["cargo", "rustc"] {
        let script = root.join("tc/bin").join(tool);
        write(
            root,
            &format!("tc/bin/{tool}"),
            &format!("#!/bin/sh\ntouch '{}'\nexit 1\n", marker.display()),
        );
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let toolchain = toolchain.replace("{TC}", &root.join("tc").display().to_string());
    write(root, "rust-toolchain.toml", &toolchain);
    (dir, marker)
}

/// The README promises that nothing the analysed tree chooses is run: the
/// checkout's toolchain file is not honoured when we ask cargo for metadata.
#[test]
fn the_checkouts_toolchain_is_never_run() {
    assert!(
        Command::new("rustup").arg("--version").output().is_ok(),
        "this test needs rustup, as every machine of this project has"
    );
    for toolchain in [
        "[toolchain]\npath = \"{TC}\"\n",
        // A pinned toolchain that is not installed must not break the run either.
        "[toolchain]\nchannel = \"nightly-2019-01-01\"\n",
    ] {
        let (dir, marker) = hostile_checkout(toolchain);
        // Run directly (no `CARGO` from a parent cargo), as pre-commit and CI do.
        let out = Command::new(env!("CARGO_BIN_EXE_backend-lint"))
            .args(["check", "--format", "json"])
            .current_dir(dir.path())
            .env_remove("CARGO")
            .env_remove("RUSTUP_TOOLCHAIN")
            .output()
            .unwrap();
        assert!(!marker.exists(), "the checkout's cargo was run");
        assert_eq!(
            (out.status.code(), findings(&out).len()),
            (Some(1), 1),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// A file that does not parse fails the run only when a target compiles it.
#[test]
fn unparsable_files_no_target_compiles_are_skipped_not_errors() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "Cargo.toml",
        "[package]\nname = \"p\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    write(
        root,
        "src/lib.rs",
        "mod live;\npub fn init() { register_backend(\"cuda\", make); register_backend(\"cuda\", make); }\n",
    );
    write(root, "src/live.rs", "pub fn ok() {}\n");
    // Left over: no `mod dead;` anywhere, not a target.
    write(root, "src/dead.rs", "fn broken( {\n");
    let out = cargo_lint(root, &["check", "--format", "json"]);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "the duplicate, not the dead file"
    );
    assert_eq!(json["errors"].as_array().unwrap().len(), 0);
    assert_eq!(json["skipped"][0]["file"], "src/dead.rs");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("warning: skipped `src/dead.rs`"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A module that is compiled and does not parse is an error, as is a target.
    write(root, "src/live.rs", "fn broken( {\n");
    write(root, "tests/t.rs", "fn broken( {\n");
    let out = cargo_lint(root, &["check", "--format", "json"]);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(2));
    let errors: Vec<&str> = json["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["file"].as_str().unwrap())
        .collect();
    assert_eq!(errors, ["src/live.rs", "tests/t.rs"]);
}
