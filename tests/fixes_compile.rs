//! Fixes proved with the compiler (issue 27): the bundled demo and every
//! `.fixed` fixture, each wrapped in a crate of its own, pass `cargo check
//! --offline` after `--fix --unsafe-fixes`, and so do the small crates of
//! the cases that once broke (a canonicalizer returning `String`, a binding
//! pattern, a suppression being repaired, a canonicalizer the crate does not
//! define). A folder fixture is compiled with its `lib.rs` as the root. A
//! fixture that is not meant to compile has a `<name>.no-compile` file
//! beside it (beside the folder for a folder fixture) saying why; this test
//! checks that it still does not, so the note cannot go stale.
//!
//! Every crate is a member of one temporary workspace (or shares its target
//! folder), so cargo checks them in one run. The cargo is the one running
//! this test (`CARGO`), resolved outside the temporary folders.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{root, write};
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_backend-lint");

/// The cargo that runs the tests, never one found in a temporary folder.
fn cargo() -> Command {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    // One target folder for every crate of every run of these tests.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fixes-compile");
    cmd.env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .env("CARGO_TERM_COLOR", "never");
    cmd
}

/// `cargo check --offline` of the package or workspace at `dir`.
fn cargo_check(dir: &Path, keep_going: bool) -> Output {
    let mut cmd = cargo();
    cmd.current_dir(dir)
        .args(["check", "--offline", "--quiet", "--workspace"]);
    if keep_going {
        cmd.arg("--keep-going");
    }
    cmd.output().unwrap()
}

fn manifest(name: &str, lib: &str) -> String {
    format!(
        "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[lib]\npath = \"{lib}\"\n"
    )
}

fn backend_lint(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .current_dir(dir)
        .arg("check")
        .args(args)
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A one-file crate in a temporary folder: `src/lib.rs` is `lib`.
fn crate_of(lib: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "Cargo.toml", manifest("t", "src/lib.rs"));
    write(dir.path(), "src/lib.rs", lib);
    dir
}

/// Fix `dir` with `--fix --unsafe-fixes`, then `cargo check` it: the new
/// `src/lib.rs`. Panics with the compiler's errors when it does not compile.
fn fixed_and_compiled(dir: &Path) -> String {
    let before = cargo_check(dir, false);
    assert!(
        before.status.success(),
        "the crate compiles before fixing:\n{}",
        text(&before.stderr)
    );
    let out = backend_lint(dir, &["--fix", "--unsafe-fixes", "--quiet"]);
    assert_ne!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let lib = std::fs::read_to_string(dir.join("src/lib.rs")).unwrap();
    let after = cargo_check(dir, false);
    assert!(
        after.status.success(),
        "the fixed crate does not compile:\n{lib}\n{}",
        text(&after.stderr)
    );
    lib
}

const DEVICE: &str = "\
pub struct Device(pub String);
impl Device {
    pub fn platform(&self) -> &str {
        &self.0
    }
}
";

/// The demo's bug: `p == \"gpu\"` became `matches!(canonicalize_platform(p),
/// \"cuda\" | ..)`, but the canonicalizer returns `String` (E0308).
#[test]
fn the_demo_compiles_after_its_own_fixes() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("examples/demo"), dir.path());
    let out = backend_lint(dir.path(), &["--fix", "--unsafe-fixes", "--quiet"]);
    assert_ne!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let devices = std::fs::read_to_string(dir.path().join("src/devices.rs")).unwrap();
    assert!(
        devices.contains("canonicalize_platform(d.platform()).as_str()"),
        "{devices}"
    );
    let check = cargo_check(dir.path(), false);
    assert!(
        check.status.success(),
        "the fixed demo does not compile:\n{}",
        text(&check.stderr)
    );
}

/// The form of the canonicalized value follows the canonicalizer's
/// declared return type: `.as_str()` for `String`, `&*` for `Cow<str>`,
/// nothing for `&str`.
#[test]
fn a_canonicalizer_is_called_as_its_return_type_needs() {
    for (ret, body, want) in [
        ("String", "p.to_lowercase()", ".as_str()"),
        (
            "std::borrow::Cow<'_, str>",
            "std::borrow::Cow::Owned(p.to_lowercase())",
            "&*canonicalize_platform(",
        ),
        (
            "&str",
            "p",
            "matches!(canonicalize_platform(d.platform()), ",
        ),
    ] {
        let lib = format!(
            "{DEVICE}
pub fn canonicalize_platform(p: &str) -> {ret} {{
    {body}
}}

pub fn gpus(d: &Device) -> bool {{
    d.platform() == \"gpu\"
}}

pub fn has_gpu(d: &Device) -> bool {{
    canonicalize_platform(d.platform()) == \"gpu\"
}}

pub fn kind(d: &Device) -> u8 {{
    match d.platform() {{
        \"gpu\" => 1,
        _ => 0,
    }}
}}
"
        );
        let dir = crate_of(&lib);
        let fixed = fixed_and_compiled(dir.path());
        assert!(fixed.contains(want), "{ret}: {fixed}");
        assert!(!fixed.contains("== \"gpu\""), "{ret}: {fixed}");
    }
}

/// A canonicalizer whose return type is not read (here: another crate's)
/// gets no fix that `--fix` applies: only one to look at.
#[test]
fn a_canonicalizer_of_unknown_return_type_gives_a_display_only_fix() {
    let dir = crate_of(&format!(
        "{DEVICE}
use platforms::canonicalize_platform;

pub fn has_gpu(d: &Device) -> bool {{
    canonicalize_platform(d.platform()) == \"gpu\"
}}
"
    ));
    let out = backend_lint(dir.path(), &["--format", "json", "--quiet"]);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let fixes: Vec<&Value> = (json["diagnostics"].as_array().unwrap().iter())
        .filter_map(|d| d.get("fix").filter(|f| !f.is_null()))
        .collect();
    assert_eq!(fixes.len(), 1, "{json:#}");
    assert_eq!(fixes[0]["applicability"], "display-only", "{json:#}");
}

/// `x @ \"gpu\" =>` becomes `x @ (\"cuda\" | \"rocm\" | \"oneapi\") =>`, not
/// `x @ \"cuda\" | ..`, which binds `x` in one alternative only (E0408).
#[test]
fn a_binding_pattern_keeps_its_meaning() {
    let lib = format!(
        "{DEVICE}
pub fn canonicalize_platform(p: &str) -> &str {{
    p
}}

pub fn gpu_name(d: &Device) -> usize {{
    match canonicalize_platform(d.platform()) {{
        x @ \"gpu\" => x.len(),
        _ => 0,
    }}
}}

pub fn raw_gpu_name(d: &Device) -> usize {{
    match d.platform() {{
        y @ \"gpu\" => y.len(),
        _ => 0,
    }}
}}
"
    );
    let dir = crate_of(&lib);
    let fixed = fixed_and_compiled(dir.path());
    assert!(
        fixed.contains("x @ (\"cuda\" | \"rocm\" | \"oneapi\") =>"),
        "{fixed}"
    );
    assert!(
        fixed.contains("y @ (\"cuda\" | \"rocm\" | \"oneapi\") =>"),
        "{fixed}"
    );
}

/// A misspelled suppression above the comparison it silences is repaired;
/// the comparison is left as it is, and the comment and its reason stay.
#[test]
fn a_suppression_being_repaired_keeps_its_finding_and_its_reason() {
    let lib = format!(
        "{DEVICE}
pub fn canonicalize_platform(p: &str) -> String {{
    p.to_lowercase()
}}

pub fn is_tpu(d: &Device) -> bool {{
    // backend-lint: allow(uncanonicalised_platform_comparison) -- TPU plugins report \"tpu\"
    d.platform() == \"tpu\"
}}
"
    );
    let dir = crate_of(&lib);
    let fixed = fixed_and_compiled(dir.path());
    let want = lib.replace("uncanonicalised", "uncanonicalized");
    assert_eq!(fixed, want);
    let again = backend_lint(dir.path(), &["--fix", "--unsafe-fixes", "--quiet"]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stdout));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("src/lib.rs")).unwrap(),
        want
    );
}

/// A suppression that silences nothing but says why it was written is not
/// removed by `--fix`: the reason is the user's.
#[test]
fn a_fix_never_removes_a_comment_with_a_reason() {
    let lib = "\
pub fn f() -> u8 {
    // backend-lint: allow(duplicate_registration) -- the plugin loader registers it again
    1
}

pub fn g() -> u8 {
    // backend-lint: allow(duplicate_registration)
    2
}
";
    let dir = crate_of(lib);
    let fixed = fixed_and_compiled(dir.path());
    assert!(
        fixed.contains("-- the plugin loader registers it again"),
        "{fixed}"
    );
    assert!(
        !fixed.contains("// backend-lint: allow(duplicate_registration)\n"),
        "the comment without a reason goes: {fixed}"
    );
}

/// The crate defines no canonicalizer (as xla-rs and pjrt-rs): no fix
/// calls one; the finding's fix is only shown.
#[test]
fn a_fix_names_only_a_canonicalizer_that_exists() {
    let lib = format!(
        "{DEVICE}
pub fn is_tpu(d: &Device) -> bool {{
    d.platform() == \"tpu\"
}}
"
    );
    let dir = crate_of(&lib);
    let fixed = fixed_and_compiled(dir.path());
    assert_eq!(fixed, lib);
}

/// A canonicalizer defined in another module is imported where the fix
/// calls it (and only a public one, or one of a module around the call).
#[test]
fn a_canonicalizer_of_another_module_is_imported() {
    let lib = format!(
        "{DEVICE}
pub mod platform {{
    pub fn canonicalize_platform(p: &str) -> String {{
        p.to_lowercase()
    }}
}}

pub mod select {{
    pub fn is_tpu(d: &super::Device) -> bool {{
        d.platform() == \"tpu\"
    }}
}}
"
    );
    let dir = crate_of(&lib);
    let fixed = fixed_and_compiled(dir.path());
    assert!(
        fixed.contains("crate::platform::canonicalize_platform(d.platform()) == \"tpu\""),
        "{fixed}"
    );
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&dst).unwrap();
            copy_dir(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

/// Every fixture with fixes, by crate name `<lint>__<name>`: a file
/// `lints/<lint>/<name>.fixed`, or a folder `lints/<lint>/<name>/` with a
/// `.fixed` file in it.
fn fixed_fixtures() -> BTreeMap<String, PathBuf> {
    let mut out = BTreeMap::new();
    for lint in std::fs::read_dir(root().join("lints")).unwrap().flatten() {
        for file in std::fs::read_dir(lint.path()).unwrap().flatten() {
            let path = file.path();
            let fixed = |p: &Path| p.extension().is_some_and(|e| e == "fixed");
            let folder_fixed = path.is_dir()
                && (std::fs::read_dir(&path).unwrap().flatten()).any(|f| fixed(&f.path()));
            if fixed(&path) || folder_fixed {
                let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
                let lint = lint.file_name().to_string_lossy().into_owned();
                out.insert(format!("{lint}__{stem}"), path);
            }
        }
    }
    out
}

/// The crate of fixture `path` after its fixes, in `to`: a file as
/// `lib.rs`; a folder copied, each `x.fixed` as `x.rs` (its root `lib.rs`).
fn fixed_crate(path: &Path, to: &Path) {
    if path.is_file() {
        std::fs::copy(path, to.join("lib.rs")).unwrap();
        return;
    }
    copy_dir(path, to);
    for file in walk(to) {
        if file.extension().is_some_and(|e| e == "fixed") {
            std::fs::rename(&file, file.with_extension("rs")).unwrap();
        }
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        match entry.file_type().unwrap().is_dir() {
            true => out.extend(walk(&entry.path())),
            false => out.push(entry.path()),
        }
    }
    out
}

/// The packages `cargo check --keep-going` could not compile.
fn failed_packages(stderr: &str) -> Vec<String> {
    (stderr.lines())
        .filter_map(|l| l.strip_prefix("error: could not compile `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect()
}

#[test]
fn every_fixed_fixture_compiles_unless_it_says_why_not() {
    let fixtures = fixed_fixtures();
    assert!(fixtures.len() > 10, "{fixtures:?}");
    let dir = tempfile::tempdir().unwrap();
    let mut members = Vec::new();
    let mut not_meant = BTreeMap::new();
    for (name, path) in &fixtures {
        let why = match path.is_dir() {
            true => path.with_file_name(format!(
                "{}.no-compile",
                path.file_name().unwrap().to_string_lossy()
            )),
            false => path.with_extension("no-compile"),
        };
        if let Ok(why) = std::fs::read_to_string(&why) {
            assert!(!why.trim().is_empty(), "{}: say why", path.display());
            not_meant.insert(name.clone(), why);
        }
        write(
            dir.path(),
            &format!("{name}/Cargo.toml"),
            manifest(name, "lib.rs"),
        );
        fixed_crate(path, &dir.path().join(name));
        members.push(format!("\"{name}\""));
    }
    write(
        dir.path(),
        "Cargo.toml",
        format!(
            "[workspace]\nresolver = \"2\"\nmembers = [{}]\n",
            members.join(", ")
        ),
    );
    let out = cargo_check(dir.path(), true);
    let stderr = text(&out.stderr);
    let failed = failed_packages(&stderr);
    let mut wrong = Vec::new();
    for name in fixtures.keys() {
        match (failed.contains(name), not_meant.contains_key(name)) {
            (true, false) => wrong.push(format!("{name} does not compile")),
            (false, true) => wrong.push(format!("{name} compiles: remove its .no-compile note")),
            _ => {}
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}\n{stderr}");
}

/// A binding of a method the crate declares `-> String`, under a name of a
/// configured source (`platform_name`), compared twice: the canonicalizer
/// taking `&str` is given `&p` (found on a crate written for the review:
/// `canonicalize_platform(p)` was E0308).
#[test]
fn a_binding_of_an_owned_platform_is_borrowed() {
    let lib = "\
pub fn canonicalize_platform(p: &str) -> std::borrow::Cow<'_, str> {
    std::borrow::Cow::Owned(p.to_ascii_lowercase())
}

pub struct Client {
    kind: String,
}

impl Client {
    pub fn platform_name(&self) -> String {
        self.kind.clone()
    }

    pub fn is_accel(&self) -> bool {
        let p = self.platform_name();
        p == \"gpu\" || p == \"tpu\"
    }
}
";
    let dir = crate_of(lib);
    let fixed = fixed_and_compiled(dir.path());
    assert!(
        fixed.contains("canonicalize_platform(&p) == \"tpu\""),
        "{fixed}"
    );
}
