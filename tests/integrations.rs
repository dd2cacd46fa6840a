//! The real clients: Microsoft's SARIF validator, the SARIF 2.1.0 JSON schema
//! and pre-commit. They are installed by `.ci/run` (npm, pip), so these tests
//! are `#[ignore]`d in a plain `cargo test` and run by CI with
//! `cargo test -- --include-ignored`. Each fails, never skips, when its tool
//! is missing.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn node_tool(rel: &str) -> PathBuf {
    let p = root().join(".ci/node/node_modules").join(rel);
    assert!(
        p.exists(),
        "{} is missing: run `npm ci --prefix .ci/node` (as .ci/run does)",
        p.display()
    );
    p
}

/// SARIF of a run with findings, a cross-file label, fixes (suppression
/// comments), a file that does not parse and a file skipped (a link out of
/// the folder: a warning notification).
fn sarif_report(dir: &Path) -> PathBuf {
    let src = dir.join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::copy(
        root().join("tests/data/sample/src/lib.rs"),
        src.join("lib.rs"),
    )
    .unwrap();
    std::fs::copy(
        root().join("tests/data/sample/src/names.rs"),
        src.join("names.rs"),
    )
    .unwrap();
    std::fs::copy(
        root().join("tests/data/fixable/src/crlf.rs"),
        src.join("fixable.rs"),
    )
    .unwrap();
    std::fs::write(src.join("broken file.rs"), "fn broken( {\n").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("/dev/null", src.join("link out.rs")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_backend-lint"))
        .current_dir(dir)
        .args(["check", "src", "--format", "sarif"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let path = dir.join("report.sarif");
    std::fs::write(&path, &out.stdout).unwrap();
    path
}

/// `sarif-multitool validate`: its output and its own SARIF log of what it found.
fn validate(multitool: &Path, report: &Path) -> (std::process::Output, Value) {
    let log = report.with_file_name("validation.sarif");
    let out = Command::new(multitool)
        .arg("validate")
        .arg(report)
        .arg("--output")
        .arg(&log)
        .args(["--log", "ForceOverwrite"])
        .output()
        .unwrap();
    let log = serde_json::from_str(&std::fs::read_to_string(&log).unwrap()).unwrap();
    (out, log)
}

#[test]
#[ignore = "needs @microsoft/sarif-multitool from npm: run by .ci/run"]
fn sarif_multitool_validates_our_sarif() {
    let multitool = node_tool("@microsoft/sarif-multitool-linux/Sarif.Multitool");
    let dir = tempfile::tempdir().unwrap();
    let report = sarif_report(dir.path());
    let (out, log) = validate(&multitool, &report);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert!(
        results.is_empty(),
        "the validator reports: {}",
        results
            .iter()
            .map(|r| r["message"].to_string())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 files scanned"));
    let sarif: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let fixes = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r.get("fixes").is_some())
        .count();
    assert_eq!(fixes, 4, "the validator saw the fixes");
}

#[test]
#[ignore = "needs @microsoft/sarif-multitool from npm: run by .ci/run"]
fn sarif_multitool_rejects_a_broken_log() {
    // The validator itself must be able to fail, or the test above proves nothing.
    let multitool = node_tool("@microsoft/sarif-multitool-linux/Sarif.Multitool");
    let dir = tempfile::tempdir().unwrap();
    let report = sarif_report(dir.path());
    let mut sarif: Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] =
        "/abs/lib.rs".into();
    std::fs::write(&report, sarif.to_string()).unwrap();
    let (_, log) = validate(&multitool, &report);
    assert!(!log["runs"][0]["results"].as_array().unwrap().is_empty());
}

#[test]
#[ignore = "needs the SARIF 2.1.0 schema from npm (@microsoft/jest-sarif): run by .ci/run"]
fn sarif_matches_the_json_schema() {
    let schema_path = node_tool("@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json");
    let mut schema: Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    // rtm.5 has a stray `]` in the pattern of the `language` properties
    // (fixed in the OASIS errata schema); a strict validator refuses to
    // compile it. We emit no `language`, so the correction cannot hide an
    // error of ours.
    for owner in ["run", "toolComponent"] {
        let language = &mut schema["definitions"][owner]["properties"]["language"]["pattern"];
        assert_eq!(language, "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$");
        *language = "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$".into();
    }
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let dir = tempfile::tempdir().unwrap();
    let report = sarif_report(dir.path());
    let sarif: Value = serde_json::from_str(&std::fs::read_to_string(report).unwrap()).unwrap();
    assert!(
        sarif["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r.get("fixes").is_some())
    );
    // The broken file's notification and the skipped file's (a warning).
    let levels: Vec<&str> = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["level"].as_str().unwrap())
        .collect();
    assert_eq!(
        levels,
        if cfg!(unix) {
            vec!["error", "warning"]
        } else {
            vec!["error"]
        }
    );
    let errors: Vec<String> = validator
        .iter_errors(&sarif)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    // And the schema does reject what is not SARIF.
    let mut broken = sarif.clone();
    broken["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(!validator.is_valid(&broken));
}

fn git_command(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new("git");
    cmd.current_dir(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com");
    cmd
}

fn git(dir: &Path, args: &[&str]) -> std::process::Output {
    let out = git_command(dir, args).output().unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `git commit`, running the installed hook: (accepted, everything printed).
fn commit(repo: &Path, home: &Path, message: &str) -> (bool, String) {
    let out = git_command(repo, &["commit", "-q", "-m", message])
        .env("PRE_COMMIT_HOME", home)
        .output()
        .unwrap();
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), log)
}

/// pre-commit's home, shared by the tests (in cargo's folder for tests'
/// files, under `target/`): the hook repository (this checkout at one
/// commit) is built once, not once per test; pre-commit locks its store,
/// so two tests wait for one build.
fn pre_commit_home() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pre-commit-home")
}

/// A git repository in `dir` whose `.pre-commit-config.yaml` takes the hook
/// `hook_id` from this checkout at its current commit, with pre-commit
/// installed: the path of pre-commit's home, for [`commit`].
fn hooked_repo(dir: &Path, hook_id: &str, files: &[(&str, &str)]) -> PathBuf {
    let which = Command::new("pre-commit").arg("--version").output();
    assert!(
        which.is_ok_and(|o| o.status.success()),
        "pre-commit is missing: `pip install pre-commit` (as .ci/run does)"
    );
    // The hook repository: this checkout at its current commit.
    let rev = String::from_utf8(git(&root(), &["rev-parse", "HEAD"]).stdout)
        .unwrap()
        .trim()
        .to_string();
    git(dir, &["init", "-q", "-b", "main"]);
    std::fs::write(
        dir.join(".pre-commit-config.yaml"),
        format!(
            "repos:\n  - repo: {}\n    rev: {rev}\n    hooks:\n      - id: {hook_id}\n",
            root().display()
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"hooked\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    )
    .unwrap();
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    git(dir, &["add", "."]);
    let home = pre_commit_home();
    let out = Command::new("pre-commit")
        .current_dir(dir)
        .arg("install")
        .env("PRE_COMMIT_HOME", &home)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    home
}

#[test]
#[ignore = "needs pre-commit from PyPI and builds this repository as a hook: run by .ci/run"]
fn pre_commit_hook_blocks_a_bug_and_passes_clean_code() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path();
    let home = hooked_repo(
        repo,
        "backend-lint",
        &[
            (
                "src/lib.rs",
                "mod names;\npub fn init() { register_backend(\"cuda\", make); }\n",
            ),
            ("src/names.rs", "pub const CUDA: &str = \"cuda\";\n"),
        ],
    );

    // A clean commit passes (the hook is built on first use).
    let (accepted, log) = commit(repo, &home, "clean");
    assert!(accepted, "clean commit refused:\n{log}");
    assert!(log.contains("backend-lint"), "{log}");

    // A bug in a changed file, whose first registration is in an unchanged file.
    std::fs::write(
        repo.join("src/names.rs"),
        "pub const CUDA: &str = \"cuda\";\npub fn again() { register_backend(CUDA, make); }\n",
    )
    .unwrap();
    git(repo, &["add", "src/names.rs"]);
    let (accepted, log) = commit(repo, &home, "bug");
    assert!(!accepted, "the commit with a bug went through:\n{log}");
    assert!(log.contains("duplicate_registration"), "{log}");
    assert!(log.contains("src/names.rs"), "{log}");
    assert!(log.contains("first registered here"), "{log}");
}

#[test]
#[ignore = "needs pre-commit from PyPI and builds this repository as a hook: run by .ci/run"]
fn pre_commit_fix_hook_fixes_and_fails_until_the_fix_is_staged() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path();
    let stale = concat!(
        "pub fn pick(d: &Device) -> bool {\n",
        // No reason after `--`: a comment with one is never removed by a fix.
        "    // backend-lint: allow(uncanonicalized_platform_comparison)\n",
        "    canonicalize_platform(d.platform()) == \"cuda\"\n",
        "}\n",
    );
    let home = hooked_repo(repo, "backend-lint-fix", &[("src/lib.rs", stale)]);
    // Only a warning, but one with a safe fix: the hook applies it and
    // fails, as pre-commit fails a hook that changed files.
    let (accepted, log) = commit(repo, &home, "stale comment");
    assert!(!accepted, "the commit went through unfixed:\n{log}");
    assert!(log.contains("files were modified by this hook"), "{log}");
    assert_eq!(
        std::fs::read_to_string(repo.join("src/lib.rs")).unwrap(),
        "pub fn pick(d: &Device) -> bool {\n    canonicalize_platform(d.platform()) == \"cuda\"\n}\n"
    );
    // The fix staged, the commit goes through.
    git(repo, &["add", "src/lib.rs"]);
    let (accepted, log) = commit(repo, &home, "fixed");
    assert!(accepted, "the fixed commit was refused:\n{log}");
}
