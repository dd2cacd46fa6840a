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

/// A package `p` in a temporary folder: its `Cargo.toml` alone.
fn package_p() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "Cargo.toml",
        "[package]\nname = \"p\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    dir
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

/// An executable script at `rel` in `root` that leaves `marker` if it is ever run.
fn marker_script(root: &Path, rel: &str, marker: &Path) {
    use std::os::unix::fs::PermissionsExt;
    write(
        root,
        rel,
        &format!("#!/bin/sh\n: > '{}'\nexit 1\n", marker.display()),
    );
    std::fs::set_permissions(root.join(rel), std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A checkout whose toolchain file (`rust-toolchain.toml` or the legacy
/// `rust-toolchain`) names a toolchain of its own, and which has programs of
/// its own where a careless lookup finds them (`./cargo`, `./bin/cargo`): each
/// a script that leaves a marker file if it is ever run. `src/lib.rs` has one
/// duplicate registration.
fn hostile_checkout(file: &str, toolchain: &str) -> (tempfile::TempDir, PathBuf) {
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
    for script in ["tc/bin/cargo", "tc/bin/rustc", "cargo", "bin/cargo"] {
        marker_script(root, script, &marker);
    }
    let toolchain = toolchain.replace("{TC}", &root.join("tc").display().to_string());
    write(root, file, &toolchain);
    (dir, marker)
}

/// The toolchain files that make rustup run the checkout's own `tc/bin/cargo`.
const HOSTILE_TOOLCHAINS: [(&str, &str); 2] = [
    ("rust-toolchain.toml", "[toolchain]\npath = \"{TC}\"\n"),
    ("rust-toolchain", "[toolchain]\npath = \"{TC}\"\n"),
];

/// The installed `backend-lint`, run directly in `dir` as pre-commit and CI
/// do: no `CARGO` or `RUSTUP_TOOLCHAIN` from a parent cargo.
fn direct(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_backend-lint"));
    cmd.args(args)
        .current_dir(dir)
        .env_remove("CARGO")
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("GITHUB_STEP_SUMMARY");
    cmd
}

/// A real `rustup` binary (`~/.cargo/bin/rustup`), found on `PATH`.
fn rustup_binary() -> PathBuf {
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|d| d.join("rustup"))
        .find(|p| p.is_file())
        .expect("this test needs rustup, as every machine of this project has")
}

/// The README promises that nothing the analysed tree chooses is run: the
/// checkout's toolchain file is not honoured when we ask cargo for metadata.
#[test]
fn the_checkouts_toolchain_is_never_run() {
    rustup_binary();
    for (file, toolchain) in HOSTILE_TOOLCHAINS.into_iter().chain([
        // A pinned toolchain that is not installed must not break the run either.
        (
            "rust-toolchain.toml",
            "[toolchain]\nchannel = \"nightly-2019-01-01\"\n",
        ),
        ("rust-toolchain", "nightly-2019-01-01\n"),
    ]) {
        let (dir, marker) = hostile_checkout(file, toolchain);
        let out = direct(dir.path(), &["check", "--format", "json"])
            .output()
            .unwrap();
        assert!(!marker.exists(), "the checkout's cargo was run ({file})");
        assert_eq!(
            (out.status.code(), findings(&out).len()),
            (Some(1), 1),
            "{file}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Only rustup's `cargo` proxy on `PATH`, no `rustup`: the proxy is still
/// pinned (it is rustup itself, whatever its name), or the run fails closed;
/// never an unpinned proxy that obeys the checkout's toolchain file.
#[test]
fn rustups_proxy_is_pinned_without_rustup_on_path() {
    let rustup = rustup_binary();
    for (file, toolchain) in HOSTILE_TOOLCHAINS {
        let (dir, marker) = hostile_checkout(file, toolchain);
        let bin = tempfile::tempdir().unwrap();
        // As `~/.cargo/bin/cargo`: a link to rustup, and (name-blind) a copy.
        std::os::unix::fs::symlink(&rustup, bin.path().join("cargo")).unwrap();
        std::fs::create_dir(bin.path().join("copy")).unwrap();
        std::fs::copy(&rustup, bin.path().join("copy/cargo")).unwrap();
        for proxy_dir in [bin.path().to_path_buf(), bin.path().join("copy")] {
            let out = direct(dir.path(), &["check", "--format", "json"])
                .env("PATH", &proxy_dir)
                .output()
                .unwrap();
            assert!(!marker.exists(), "the checkout's cargo was run ({file})");
            assert_eq!(
                (out.status.code(), findings(&out).len()),
                (Some(1), 1),
                "{file}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            // No default toolchain to pin to: exit 2, and still nothing run.
            let empty_home = tempfile::tempdir().unwrap();
            let out = direct(dir.path(), &["check"])
                .env("PATH", &proxy_dir)
                .env("RUSTUP_HOME", empty_home.path())
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(!marker.exists(), "the checkout's cargo was run ({file})");
            assert_eq!(out.status.code(), Some(2), "{stderr}");
            assert!(
                stderr.contains("cannot pin the toolchain of rustup's proxy"),
                "{stderr}"
            );
        }
    }
}

/// `PATH` entries relative to the current folder (`.`, `bin`, empty) name the
/// checkout's programs when run in it: `cargo` is never taken from the tree.
#[test]
fn a_cargo_inside_the_tree_is_never_taken_from_path() {
    let (dir, marker) = hostile_checkout("unrelated.txt", "");
    let path = std::env::var_os("PATH").unwrap_or_default();
    for entry in [".", "bin", ""] {
        let mut with = std::ffi::OsString::from(format!("{entry}:"));
        with.push(&path);
        let out = direct(dir.path(), &["check", "--format", "json"])
            .env("PATH", &with)
            .output()
            .unwrap();
        assert!(!marker.exists(), "the checkout's cargo was run (`{entry}`)");
        assert_eq!(
            (out.status.code(), findings(&out).len()),
            (Some(1), 1),
            "`{entry}`: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // Nothing but the tree's own cargo: a clear error, not the tree's program.
    let out = direct(dir.path(), &["check"])
        .env("PATH", ".")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!marker.exists(), "the checkout's cargo was run");
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("no `cargo` on `PATH` outside the analysed tree"),
        "{stderr}"
    );
}

/// The current folder is not analysed with `--manifest-path`: a cargo below
/// it (as `~/.cargo/bin/cargo` is below the home folder) is still run.
#[test]
fn a_cargo_below_the_current_folder_is_not_the_analysed_trees() {
    let (dir, marker) = hostile_checkout("unrelated.txt", "");
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir(home.path().join("bin")).unwrap();
    std::os::unix::fs::symlink(rustup_binary(), home.path().join("bin/cargo")).unwrap();
    let manifest = dir.path().join("Cargo.toml");
    let out = direct(
        home.path(),
        &[
            "check",
            "--format",
            "json",
            "--manifest-path",
            manifest.to_str().unwrap(),
        ],
    )
    .env("PATH", home.path().join("bin"))
    .output()
    .unwrap();
    assert!(!marker.exists());
    assert_eq!(
        (out.status.code(), findings(&out).len()),
        (Some(1), 1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// rustup runs the checkout's own `cargo` under `cargo backend-lint` when the
/// checkout's toolchain file names it; when that cargo starts
/// `cargo-backend-lint`, it refuses, whatever is being analysed.
#[test]
fn cargo_backend_lint_refuses_a_cargo_from_the_analysed_tree() {
    rustup_binary();
    let real_cargo = PathBuf::from(std::env::var_os("CARGO").expect("cargo test sets CARGO"));
    let bin_dir = PathBuf::from(env!("CARGO_BIN_EXE_cargo-backend-lint"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    for (file, toolchain) in HOSTILE_TOOLCHAINS {
        let (dir, marker) = hostile_checkout(file, toolchain);
        // A real cargo of the checkout's own (linked, or copied: not a script).
        let own = dir.path().join("tc/bin/cargo");
        std::fs::remove_file(&own).unwrap();
        std::fs::hard_link(&real_cargo, &own)
            .or_else(|_| std::fs::copy(&real_cargo, &own).map(drop))
            .unwrap();
        let manifest = dir.path().join("Cargo.toml");
        for args in [
            vec!["backend-lint", "check"],
            vec![
                "backend-lint",
                "check",
                "--manifest-path",
                manifest.to_str().unwrap(),
            ],
            vec!["backend-lint", "check", "src"],
            vec!["backend-lint", "check", "src/lib.rs"],
        ] {
            // `cargo` is rustup's proxy from PATH, as in CI.
            let out = Command::new("cargo")
                .args(&args)
                .current_dir(dir.path())
                .env("PATH", &path)
                .env_remove("CARGO")
                .env_remove("RUSTUP_TOOLCHAIN")
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{file} {args:?}: {stderr}");
            assert!(
                stderr.contains("is inside the analysed tree")
                    && stderr.contains("run the installed `backend-lint check` directly"),
                "{stderr}"
            );
            assert!(
                out.stdout.is_empty(),
                "nothing analysed: {}",
                String::from_utf8_lossy(&out.stdout)
            );
        }
        assert!(!marker.exists());
    }
}

/// The lines of the README's CI recipes (GitHub Actions, GitLab CI) that
/// run backend-lint, not those that install it.
fn readme_recipes() -> Vec<String> {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme.find("### GitHub Actions").unwrap();
    let end = readme.find("### Editors").unwrap();
    readme[start..end]
        .lines()
        .map(str::trim)
        .filter_map(|l| l.strip_prefix("- run: ").or_else(|| l.strip_prefix("- ")))
        .filter(|l| l.contains("backend-lint check"))
        .map(str::to_string)
        .collect()
}

/// The README's CI recipes, word for word, on checkouts that try to choose
/// the program: an `[alias] backend-lint` in `.cargo/config.toml` (cargo
/// resolves it before the subcommand, and only warns) and toolchain files
/// (rustup obeys them under `cargo backend-lint`). Neither is run, the
/// finding is reported, and a failure (a broken manifest, under a toolchain
/// file naming a toolchain that is not installed) is exit 2, not 1.
#[test]
fn the_readmes_ci_recipes_run_nothing_the_checkout_chooses() {
    let recipes = readme_recipes();
    assert_eq!(recipes.len(), 2, "{recipes:?}");
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    // Installed as the README says: locked, and on CI with an explicit toolchain.
    for install in readme
        .lines()
        .filter(|l| l.contains("cargo ") && l.contains(" install --"))
    {
        assert!(install.contains("--locked"), "{install}");
        assert!(
            !install.contains("--git") || install.contains("cargo +"),
            "{install}"
        );
    }
    let bin_dir = PathBuf::from(env!("CARGO_BIN_EXE_backend-lint"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    let target = tempfile::tempdir().unwrap();
    let run = |dir: &Path, recipe: &str| {
        Command::new("sh")
            .args(["-c", recipe])
            .current_dir(dir)
            .env("PATH", &path)
            .env("CARGO_TARGET_DIR", target.path())
            .env_remove("CARGO")
            .env_remove("RUSTUP_TOOLCHAIN")
            .env_remove("GITHUB_STEP_SUMMARY")
            .output()
            .unwrap()
    };
    for (file, toolchain) in HOSTILE_TOOLCHAINS
        .into_iter()
        .chain([("unrelated.txt", "")])
    {
        let (dir, marker) = hostile_checkout(file, toolchain);
        let root = dir.path();
        write(
            root,
            ".cargo/config.toml",
            "[alias]\nbackend-lint = [\"run\", \"--manifest-path\", \"evil/Cargo.toml\", \"--\"]\n",
        );
        write(
            root,
            "evil/Cargo.toml",
            "[package]\nname = \"evil\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        );
        write(
            root,
            "evil/src/main.rs",
            &format!(
                "fn main() {{ std::fs::write({:?}, \"\").unwrap(); println!(\"::notice::no findings\"); }}\n",
                marker
            ),
        );
        for recipe in &recipes {
            let out = run(root, recipe);
            assert!(
                !marker.exists(),
                "`{recipe}` ran the checkout's program ({file})"
            );
            assert_eq!(
                out.status.code(),
                Some(1),
                "`{recipe}` ({file}): {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    let (dir, _) = hostile_checkout(
        "rust-toolchain.toml",
        "[toolchain]\nchannel = \"nightly-2019-01-01\"\n",
    );
    std::fs::write(dir.path().join("Cargo.toml"), "[package\n").unwrap();
    for recipe in &recipes {
        let out = run(dir.path(), recipe);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "`{recipe}`: {stderr}");
        assert!(
            stderr.contains("`cargo metadata` failed"),
            "`{recipe}`: {stderr}"
        );
    }
}

/// A file that does not parse fails the run only when a target compiles it.
#[test]
fn unparsable_files_no_target_compiles_are_skipped_not_errors() {
    let dir = package_p();
    let root = dir.path();
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

/// A module folder named `target` (maturin's `src/target/mod.rs`) is read;
/// cargo's build folder beside `Cargo.toml`, or one it marked elsewhere,
/// is not.
#[test]
fn a_module_folder_named_target_is_read_cargo_s_build_folder_is_not() {
    let dir = package_p();
    let root = dir.path();
    let twice =
        "pub fn init() { register_backend(\"cuda\", make); register_backend(\"cuda\", make); }\n";
    write(root, "src/lib.rs", "mod target;\n");
    write(root, "src/target/mod.rs", twice);
    write(root, "target/debug/build/x/out/gen.rs", twice);
    write(
        root,
        "build/CACHEDIR.TAG",
        "Signature: 8a477f597d28d172789f06886806bc55\n",
    );
    write(
        root,
        "out/target/CACHEDIR.TAG",
        "Signature: 8a477f597d28d172789f06886806bc55\n",
    );
    write(root, "out/target/gen.rs", twice);
    let out = cargo_lint(root, &["check", "--format", "json"]);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let files: Vec<&str> = (json["diagnostics"].as_array().unwrap().iter())
        .map(|d| d["span"]["file"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["src/target/mod.rs"], "{json}");
}

/// Packages under the workspace root that are no member (cargo's
/// `exclude`, a workspace of their own) are not checked by `--workspace`:
/// one note names them and how to check them. Hidden folders and
/// `target/` are not looked in; `--quiet` says nothing.
#[test]
fn workspace_names_the_packages_under_its_root_it_leaves_out() {
    let dir = workspace();
    let root = dir.path();
    let manifest = |name: &str| {
        format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n")
    };
    write(
        root,
        "Cargo.toml",
        "[workspace]\nmembers = [\"engine\", \"plugins\"]\nexclude = [\"onnx\"]\nresolver = \"2\"\n",
    );
    write(root, "onnx/Cargo.toml", &manifest("onnx"));
    write(root, "onnx/src/lib.rs", "pub fn f() {}\n");
    let own = format!("{}\n[workspace]\n", manifest("own"));
    write(root, "tools/own/Cargo.toml", &own);
    write(root, ".hidden/Cargo.toml", &manifest("hidden"));
    write(root, "target/package/x/Cargo.toml", &manifest("x"));
    let out = direct(root, &["check", "--workspace", "--format", "json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let notes: Vec<&str> = stderr.lines().filter(|l| l.starts_with("note:")).collect();
    assert_eq!(
        notes,
        [
            "note: 2 packages under the workspace root are not members of it, so `--workspace` \
          does not check them: `onnx`, `tools/own`; check one with `backend-lint check onnx`, \
          or every folder with `backend-lint check .`",
            // `engine`'s dependency was never fetched.
            "note: the dependencies were not read, so nothing was learned from them: cargo \
          cannot resolve them offline as `Cargo.lock` pins them (a source not fetched, or \
          `Cargo.lock` missing or out of date; `cargo metadata --offline --locked` says which); \
          run `cargo fetch` (backend-lint downloads nothing)"
        ],
        "{stderr}"
    );
    let out = direct(root, &["check", "--workspace", "--quiet"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("note:"));
    // Without --workspace nothing is said of them: the packages are
    // cargo's choice.
    let out = direct(root, &["check", "--format", "json"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("not members"));
}

/// A value set one member of the workspace defines (`Kind::label`) decides
/// the comparisons of its calls in another member depending on it, where
/// the model resolves the call to it, though the defining member compares
/// nothing itself: its file holds nothing to report, and the crate pass
/// does not read its crate.
#[test]
fn a_members_value_set_decides_the_calls_of_a_member_depending_on_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "Cargo.toml",
        "[workspace]\nmembers = [\"app\", \"devices\"]\nresolver = \"2\"\n",
    );
    write(
        root,
        "devices/Cargo.toml",
        "[package]\nname = \"devices\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    write(
        root,
        "devices/src/lib.rs",
        "pub enum Kind {\n    Cuda,\n    Metal,\n}\n\nimpl Kind {\n    pub fn label(&self) -> &'static str {\n        match self {\n            Kind::Cuda => \"Cuda\",\n            Kind::Metal => \"Metal\",\n        }\n    }\n}\n\npub fn current() -> Kind {\n    Kind::Cuda\n}\n",
    );
    write(
        root,
        "app/Cargo.toml",
        "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\ndevices = { path = \"../devices\" }\n",
    );
    write(
        root,
        "app/src/lib.rs",
        "pub fn on_cuda() -> bool {\n    let kind = devices::current();\n    kind.label() == \"cuda\"\n}\n\npub fn on_metal() -> bool {\n    devices::current().label() == \"Metal\"\n}\n",
    );
    for extra in [&[][..], &["--no-prefilter"]] {
        let mut args = vec!["check", ".", "--format", "json", "--exit-zero"];
        args.extend_from_slice(extra);
        let out = direct(root, &args).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        let found: Vec<(String, u64, String)> = (report["diagnostics"].as_array().unwrap().iter())
            .map(|d| {
                (
                    d["span"]["file"].as_str().unwrap().to_string(),
                    d["span"]["line"].as_u64().unwrap(),
                    d["lint"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        assert_eq!(
            found,
            [(
                "app/src/lib.rs".to_string(),
                3,
                "impossible_value_comparison".to_string()
            )],
            "{extra:?}"
        );
    }
}

/// The findings of `check .` in `root` (file, line), in the default mode
/// and with `--no-prefilter`: the two must agree.
fn findings_in_both_modes(root: &Path) -> Vec<(String, u64)> {
    let mut modes = [&[][..], &["--no-prefilter"]].into_iter().map(|extra| {
        let mut args = vec!["check", ".", "--format", "json", "--exit-zero"];
        args.extend_from_slice(extra);
        let out = direct(root, &args).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        (report["diagnostics"].as_array().unwrap().iter())
            .map(|d| {
                (
                    d["span"]["file"].as_str().unwrap().to_string(),
                    d["span"]["line"].as_u64().unwrap(),
                )
            })
            .collect::<Vec<_>>()
    });
    let default = modes.next().unwrap();
    assert_eq!(modes.next().unwrap(), default, "--no-prefilter differs");
    default
}

/// A call of a function returning the set's type decides the method
/// called on it, in a file that never names the type
/// (`devices::current().label()`, `let kind = devices::current()`): in
/// both modes, the fast path parses such a file.
#[test]
fn a_call_of_a_function_returning_a_sets_type_is_decided_where_the_type_is_not_named() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "Cargo.toml",
        "[workspace]\nmembers = [\"app\", \"devices\"]\nresolver = \"2\"\n",
    );
    write(
        root,
        "devices/Cargo.toml",
        "[package]\nname = \"devices\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    write(
        root,
        "devices/src/lib.rs",
        "pub enum Kind {\n    Cuda,\n    Metal,\n}\n\nimpl Kind {\n    pub fn label(&self) -> &'static str {\n        match self {\n            Kind::Cuda => \"cuda\",\n            Kind::Metal => \"metal\",\n        }\n    }\n\n    pub fn detect() -> Option<Self> {\n        None\n    }\n}\n\npub fn current() -> Kind {\n    Kind::Cuda\n}\n",
    );
    write(
        root,
        "app/Cargo.toml",
        "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\ndevices = { path = \"../devices\" }\n",
    );
    write(
        root,
        "app/src/lib.rs",
        "pub fn on_gles() -> bool {\n    devices::current().label() == \"gles\"\n}\n\npub fn on_vulkan() -> bool {\n    let kind = devices::current();\n    kind.label() == \"vulkan\"\n}\n\npub fn on_metal() -> bool {\n    devices::current().label() == \"metal\"\n}\n",
    );
    assert_eq!(
        findings_in_both_modes(root),
        [
            ("app/src/lib.rs".to_string(), 2),
            ("app/src/lib.rs".to_string(), 7)
        ]
    );
}

/// A workspace member living in a folder named `tests` is a library (wgpu's
/// test support, `tests/src/lib.rs`): its comparisons are checked. Only the
/// files in a package's own `tests/` folder are integration tests, which
/// comparisons skip unless `check-tests` is set.
#[test]
fn a_member_in_a_folder_named_tests_is_a_library_and_only_its_own_tests_are_tests() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "Cargo.toml",
        "[workspace]\nmembers = [\"devices\", \"tests\"]\nresolver = \"2\"\n",
    );
    write(
        root,
        "devices/Cargo.toml",
        "[package]\nname = \"devices\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    write(
        root,
        "devices/src/lib.rs",
        "pub enum Kind {\n    Cuda,\n    Metal,\n}\n\nimpl Kind {\n    pub fn label(&self) -> &'static str {\n        match self {\n            Kind::Cuda => \"cuda\",\n            Kind::Metal => \"metal\",\n        }\n    }\n}\n\npub fn current() -> Kind {\n    Kind::Cuda\n}\n",
    );
    write(
        root,
        "tests/Cargo.toml",
        "[package]\nname = \"gpu-test-support\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\ndevices = { path = \"../devices\" }\n",
    );
    let compares =
        "pub fn on_gles(kind: &devices::Kind) -> bool {\n    kind.label() == \"gles\"\n}\n";
    write(root, "tests/src/lib.rs", compares);
    write(root, "tests/tests/support.rs", compares);
    assert_eq!(
        findings_in_both_modes(root),
        [("tests/src/lib.rs".to_string(), 2)]
    );
}
