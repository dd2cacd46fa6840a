//! Configuration, lint levels and baselines, through the binary as users run it.

use std::path::{Path, PathBuf};

use serde_json::Value;

mod common;
use common::{bin, root, run_cmd as run, snapshot, write};

/// A duplicate registration (deny by default) and a raw comparison.
const LIB: &str = r#"pub struct Registry;
impl Registry {
    pub fn register_backend(&mut self, _n: &str) {}
}
pub struct Device;
impl Device {
    pub fn platform(&self) -> &str { "gpu" }
}
pub fn init(r: &mut Registry) {
    r.register_backend("cuda");
    r.register_backend("cuda");
}
pub fn pick(d: &Device) -> bool {
    d.platform() == "cuda"
}
"#;

/// A package `demo` in a temporary folder, with `lib.rs` and an optional config.
fn package(config: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "Cargo.toml",
        "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    write(dir.path(), "src/lib.rs", LIB);
    if let Some(c) = config {
        write(dir.path(), "backend-lint.toml", c);
    }
    dir
}

fn short(dir: &Path, args: &[&str]) -> (String, String, i32) {
    run(bin(dir)
        .args(["check", "src", "--format", "short"])
        .args(args))
}

#[test]
fn warn_level_is_a_warning_in_every_format_and_does_not_fail_the_run() {
    let dir = package(Some(
        "[lints]\nduplicate_registration = \"warn\"\nuncanonicalized_platform_comparison = \"allow\"\n",
    ));
    let (out, _, code) = short(dir.path(), &[]);
    assert_eq!(code, 0, "warnings only: {out}");
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.contains(": warning[duplicate_registration]: "), "{out}");

    let (sarif, _, _) = run(bin(dir.path()).args(["check", "src", "--format", "sarif"]));
    let sarif: Value = serde_json::from_str(&sarif).unwrap();
    assert_eq!(sarif["runs"][0]["results"][0]["level"], "warning");
    let (github, _, _) = run(bin(dir.path()).args(["check", "src", "--format", "github"]));
    assert!(github.starts_with("::warning "), "{github}");
    let (rustc, _, _) = run(bin(dir.path()).args(["check", "src", "--format", "rustc"]));
    let first: Value = serde_json::from_str(rustc.lines().next().unwrap()).unwrap();
    assert_eq!(first["level"], "warning");
    let (json, _, _) = run(bin(dir.path()).args(["check", "src", "--format", "json"]));
    let json: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["diagnostics"][0]["severity"], "warning");
    let (human, _, _) = run(bin(dir.path()).args(["check", "src"]));
    assert!(
        human.ends_with("1 warning in 1 file (1 file checked)\n"),
        "{human}"
    );

    // `-D warnings` makes them errors, as clippy does.
    let (out, _, code) = short(dir.path(), &["-D", "warnings"]);
    assert_eq!(code, 1);
    assert!(out.contains(": error[duplicate_registration]: "), "{out}");
}

#[test]
fn command_line_levels_apply_in_order_over_the_configuration() {
    let dir = package(Some("[lints]\nduplicate_registration = \"allow\"\n"));
    let lints_of = |out: &str| -> Vec<String> {
        out.lines()
            .map(|l| l.split(": ").nth(1).unwrap_or("").to_string())
            .collect()
    };
    let (out, _, code) = short(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(
        lints_of(&out),
        ["error[uncanonicalized_platform_comparison]"]
    );
    let (out, _, code) = short(
        dir.path(),
        &[
            "-W",
            "duplicate_registration",
            "-A",
            "uncanonicalized_platform_comparison",
        ],
    );
    assert_eq!(code, 0);
    assert_eq!(lints_of(&out), ["warning[duplicate_registration]"]);
    // The later flag wins; long names and `backend_lint::` work too.
    let (out, _, code) = short(
        dir.path(),
        &[
            "--allow",
            "duplicate_registration",
            "-A",
            "uncanonicalized_platform_comparison",
            "--deny",
            "backend_lint::duplicate_registration",
        ],
    );
    assert_eq!(code, 1);
    assert_eq!(lints_of(&out), ["error[duplicate_registration]"]);
    // Without `check`, the same options.
    let (out, _, code) = run(bin(dir.path()).args([
        "src",
        "--format",
        "short",
        "-A",
        "uncanonicalized_platform_comparison",
    ]));
    assert_eq!(code, 0, "{out}");
    assert!(out.is_empty(), "{out}");
}

#[test]
fn unknown_lint_on_the_command_line_is_a_usage_error() {
    let dir = package(None);
    let (_, err, code) = short(dir.path(), &["-D", "duplicate_registrations"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no lint named `duplicate_registrations`"),
        "{err}"
    );
}

#[test]
fn unknown_keys_and_wrong_types_name_the_key_with_its_place() {
    let dir = package(Some(
        "# ours\n[platforms]\ncanonical = [\"cpu\"]\ncanonicl = [\"cuda\"]\n",
    ));
    let (out, err, code) = short(dir.path(), &[]);
    assert_eq!(code, 2, "{out}");
    assert!(out.is_empty(), "nothing is analysed: {out}");
    snapshot("config-unknown-key.txt", &err);
    assert!(
        err.starts_with("error: backend-lint.toml:4:1: unknown field `canonicl`"),
        "{err}"
    );

    write(
        dir.path(),
        "backend-lint.toml",
        "[registration]\nextend-guards = \"has_kernel\"\n",
    );
    let (_, err, code) = short(dir.path(), &[]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error: backend-lint.toml:2:17: `registration.extend-guards`: invalid type: string \"has_kernel\", expected a sequence"),
        "{err}"
    );

    write(
        dir.path(),
        "backend-lint.toml",
        "[lints]\nduplicate = \"deny\"\n",
    );
    let (_, err, code) = short(dir.path(), &[]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error: backend-lint.toml:2:1: no lint named `duplicate`"),
        "{err}"
    );

    write(
        dir.path(),
        "backend-lint.toml",
        "[lints]\nduplicate_registration = \"error\"\n",
    );
    let (_, err, code) = short(dir.path(), &[]);
    assert_eq!(code, 2);
    assert!(err.contains("`lints.duplicate_registration`: unknown variant `error`, expected one of `allow`, `warn`, `deny`"), "{err}");
}

#[test]
fn cargo_metadata_tables_configure_and_the_nearest_source_wins() {
    let dir = tempfile::tempdir().unwrap();
    // A workspace whose root manifest configures every member ...
    write(
        dir.path(),
        "Cargo.toml",
        "[workspace]\nmembers = [\"a\", \"b\"]\n\n[workspace.metadata.backend-lint.lints]\nduplicate_registration = \"allow\"\n",
    );
    for member in ["a", "b"] {
        write(
            dir.path(),
            &format!("{member}/Cargo.toml"),
            format!("[package]\nname = \"{member}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"),
        );
        write(dir.path(), &format!("{member}/src/lib.rs"), LIB);
    }
    // ... except `b`, whose own table wins (no merging).
    let b_manifest = dir.path().join("b/Cargo.toml");
    let mut b = std::fs::read_to_string(&b_manifest).unwrap();
    b.push_str("\n[package.metadata.backend-lint.lints]\nuncanonicalized_platform_comparison = \"allow\"\n");
    std::fs::write(&b_manifest, b).unwrap();

    let (out, err, code) = run(bin(dir.path()).args(["check", "--workspace", "--format", "short"]));
    assert_eq!(code, 1, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with("a/src/lib.rs:14:5: error[uncanonicalized_platform_comparison]"),
        "{out}"
    );
    assert!(
        lines[1].starts_with("b/src/lib.rs:11:24: error[duplicate_registration]"),
        "{out}"
    );

    // A backend-lint.toml beside a manifest wins over the manifest's table.
    write(
        dir.path(),
        "b/backend-lint.toml",
        "[lints]\nduplicate_registration = \"warn\"\n",
    );
    let (out, _, _) = run(bin(&dir.path().join("b")).args(["check", "--format", "short"]));
    assert!(out.contains("warning[duplicate_registration]"), "{out}");
    assert!(
        out.contains("error[uncanonicalized_platform_comparison]"),
        "{out}"
    );

    // `config` says which file applies.
    let (text, _, code) = run(bin(&dir.path().join("a")).args(["config"]));
    assert_eq!(code, 0);
    let first = text.lines().next().unwrap();
    assert!(
        first.starts_with("# from: ")
            && first.ends_with("Cargo.toml [workspace.metadata.backend-lint]"),
        "{first}"
    );
    assert!(
        text.contains("duplicate_registration = \"allow\""),
        "{text}"
    );

    // `--config` overrides the search.
    let explicit = write(
        dir.path(),
        "strict.toml",
        "[lints]\nduplicate_registration = \"deny\"\nuncanonicalized_platform_comparison = \"deny\"\n",
    );
    let (out, _, _) = run(bin(&dir.path().join("b")).args([
        "check",
        "--format",
        "short",
        "--config",
        explicit.to_str().unwrap(),
    ]));
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(!out.contains("warning"), "{out}");
}

#[test]
fn config_prints_the_effective_configuration() {
    let dir = package(Some(
        "exclude = [\"gen/**\"]\n[platforms]\nextend-canonical = [\"vulkan\"]\nextend-aliases = { gpu = [\"cuda\", \"vulkan\"] }\n[registration]\nextend-functions = [{ name = \"add_kernel\", key = [0, 1] }]\n",
    ));
    let (text, err, code) = run(bin(dir.path()).args(["config", "-W", "duplicate_registration"]));
    assert_eq!(code, 0, "{err}");
    let text = text.replace(&dir.path().display().to_string(), "[DIR]");
    snapshot("config-effective.toml", &text);
    // What it prints is itself a valid configuration.
    let body: String = text.lines().skip(1).collect::<Vec<_>>().join("\n");
    let again = write(dir.path(), "again.toml", &body);
    let (_, err, code) =
        run(bin(dir.path()).args(["check", "src", "--config", again.to_str().unwrap()]));
    assert_ne!(code, 2, "{err}");
}

#[test]
fn exclude_globs_skip_files_relative_to_the_configuration() {
    let dir = package(Some("exclude = [\"src/generated\", \"**/*_pb.rs\"]\n"));
    write(dir.path(), "src/generated/mod.rs", LIB);
    write(dir.path(), "src/api_pb.rs", LIB);
    let (out, _, code) = run(bin(dir.path()).args(["check", "--format", "short"]));
    assert_eq!(code, 1);
    assert!(
        out.lines().all(|l| l.starts_with("src/lib.rs:")),
        "excluded files are not reported: {out}"
    );
    // Given explicitly (pre-commit), an excluded file is still skipped, and said so.
    let (out, err, code) =
        run(bin(dir.path()).args(["check", "src/api_pb.rs", "--format", "short"]));
    assert_eq!(code, 0, "{out}");
    assert!(
        err.contains("src/api_pb.rs") && err.contains("excluded"),
        "{err}"
    );
}

#[test]
fn this_repository_is_clean_under_its_own_configuration() {
    // `cargo backend-lint` at the root: the bad fixtures in lints/ are excluded.
    let (out, err, code) = run(bin(&root()).args(["check", "--format", "short"]));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.is_empty(), "{out}");
}

#[test]
fn baseline_hides_recorded_findings_and_reports_new_and_stale_ones() {
    let dir = package(None);
    let baseline = dir.path().join("baseline.json");
    let (_, err, code) = run(bin(dir.path()).args([
        "check",
        "src",
        "--write-baseline",
        baseline.to_str().unwrap(),
    ]));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("wrote 2 findings to the baseline"), "{err}");
    let recorded: Value =
        serde_json::from_str(&std::fs::read_to_string(&baseline).unwrap()).unwrap();
    assert_eq!(recorded["version"], 1);
    assert_eq!(recorded["findings"].as_array().unwrap().len(), 2);
    assert_eq!(recorded["findings"][0]["path"], "src/lib.rs");

    let with_baseline = |dir: &Path| {
        run(bin(dir).args([
            "check",
            "src",
            "--format",
            "short",
            "--baseline",
            baseline.to_str().unwrap(),
        ]))
    };
    let (out, err, code) = with_baseline(dir.path());
    assert_eq!(code, 0, "{out}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("2 findings recorded in the baseline"), "{err}");

    // Lines moving (a new line on top) does not matter; a new finding is reported.
    let moved = format!(
        "// a new first line\n{LIB}pub fn other(d: &Device) -> bool {{\n    d.platform() == \"tpu\"\n}}\n"
    );
    write(dir.path(), "src/lib.rs", &moved);
    let (out, err, code) = with_baseline(dir.path());
    assert_eq!(code, 1, "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(
        out.starts_with("src/lib.rs:18:5: error[uncanonicalized_platform_comparison]"),
        "{out}"
    );
    assert!(err.contains("2 findings recorded in the baseline"), "{err}");

    // A fixed finding leaves a stale entry, listed.
    write(
        dir.path(),
        "src/lib.rs",
        moved.replace(
            "    r.register_backend(\"cuda\");\n    r.register_backend(\"cuda\");\n",
            "    r.register_backend(\"cuda\");\n",
        ),
    );
    let (_, err, _) = with_baseline(dir.path());
    assert!(err.contains("1 finding recorded in the baseline"), "{err}");
    assert!(
        err.contains("1 entry of the baseline matches no finding"),
        "{err}"
    );
    assert!(
        err.contains("  src/lib.rs: [duplicate_registration] `cuda` is registered twice"),
        "{err}"
    );

    // Not a baseline: a clear error.
    write(dir.path(), "bad.json", "{\"findings\": 3}");
    let (_, err, code) = run(bin(dir.path()).args(["check", "src", "--baseline", "bad.json"]));
    assert_eq!(code, 2);
    assert!(
        err.contains("`bad.json` is not a backend-lint baseline"),
        "{err}"
    );
}

/// A file beside each folder of `tests/data/config/`: what `check` prints
/// for its broken configuration. Compared like a snapshot (`UPDATE_EXPECT=1`).
fn expect_beside(dir: &Path, actual: &str) {
    let path = dir.with_extension("expected");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("missing {}: run UPDATE_EXPECT=1 cargo test", path.display()));
    assert_eq!(expected, actual, "{} differs", path.display());
}

/// Folder fixtures, each a package with its own broken configuration: the
/// run stops with exit code 2 and says which key is wrong, where.
#[test]
fn broken_configurations_are_clear_errors_with_their_place() {
    let data = root().join("tests/data/config");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 8, "{dirs:?}");
    for dir in dirs {
        let rel = dir
            .strip_prefix(root())
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let (out, err, code) = run(bin(&root()).args(["check", &rel, "--color", "never"]));
        assert_eq!(code, 2, "{rel}: {out}{err}");
        assert!(out.is_empty(), "{rel}: nothing is analysed: {out}");
        let config = if dir.join("backend-lint.toml").is_file() {
            "backend-lint.toml"
        } else {
            "Cargo.toml"
        };
        assert!(
            err.starts_with(&format!("error: {rel}/{config}:")),
            "{rel}: the message starts with the file, line and column: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
        expect_beside(&dir, &err);
    }
}

/// A baseline written before the code moved on (`tests/data/baseline/`):
/// recorded findings stay hidden though their lines moved, the fixed one is
/// listed as stale, the new one is reported.
#[test]
fn a_baseline_written_earlier_hides_what_it_recorded() {
    let (out, err, code) = run(bin(&root()).args([
        "check",
        "tests/data/baseline",
        "--format",
        "short",
        "--baseline",
        "tests/data/baseline/baseline.json",
    ]));
    assert_eq!(code, 1, "{err}");
    expect_beside(
        &root().join("tests/data/baseline"),
        &format!("stdout:\n{out}\nstderr:\n{err}"),
    );
    assert_eq!(out.lines().count(), 1, "only the new finding: {out}");
    assert!(err.contains("2 findings recorded in the baseline"), "{err}");
    assert!(
        err.contains("`tpu` is registered twice"),
        "the stale entry: {err}"
    );
}

#[test]
fn config_shows_the_registration_functions_learned_from_the_code() {
    let dir = package(None);
    write(
        dir.path(),
        "src/lib.rs",
        r#"use std::collections::HashMap;
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
"#,
    );
    let (text, err, code) = run(bin(dir.path()).args(["config"]));
    assert_eq!(code, 0, "{err}");
    // Each by the item it was learned on (issue 28), the crate by its
    // manifest's name.
    assert!(
        text.contains("# registration functions:\n")
            && text.contains("#   `demo::Linker::insert` (src/lib.rs:4): it rejects a second key (`self.map.contains_key(&key)`)\n")
            && text.contains("#   `demo::Linker::define` (src/lib.rs:11): it wraps `insert`\n"),
        "{text}"
    );
    assert!(
        text.contains("# Name resolution: each of the 37 references ties to its item.\n"),
        "{text}"
    );
}

/// What the model could not resolve is counted, by why: a call on a value
/// whose type no declaration says, a name a glob of another crate may
/// bring, a module holding a macro call among its items.
#[test]
fn config_counts_what_the_model_left_unresolved() {
    let dir = package(None);
    write(
        dir.path(),
        "src/lib.rs",
        r#"use other_crate::*;
pub struct Device;
impl Device {
    pub fn kind(&self) -> &'static str { "cuda" }
}
pub fn open(d: &Device) -> bool {
    let made = make();
    made.kind() == d.kind()
}
pub fn elsewhere() { imported_from_the_glob(); }
"#,
    );
    let (text, err, code) = run(bin(dir.path()).args(["config"]));
    assert_eq!(code, 0, "{err}");
    let listed: Vec<&str> = (text.lines())
        .skip_while(|l| !l.starts_with("# Name resolution"))
        .take_while(|l| l.starts_with('#'))
        .collect();
    assert_eq!(
        listed,
        [
            "# Name resolution: 4 of 11 references tie to no item (what they call is matched by name, if at all):",
            "#         3  may come from a glob import of another crate",
            "#         1  the receiver's type is not known from declarations",
        ],
        "{text}"
    );
}
