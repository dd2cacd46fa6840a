//! `--fix`, `--unsafe-fixes` and `--diff` as users run them, on real files:
//! what is applied, what is written and how (line endings, byte-order mark,
//! permissions), what is refused (a file changed since it was read, a fixed
//! text that no longer parses), and a SIGKILL while many files are written.
//! What each lint's fixes do is in the fixtures' `.fixed` files.

mod common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use backend_lint::lints::LINTS;
use backend_lint::run::{Input, fix};
use common::write;

const BIN: &str = env!("CARGO_BIN_EXE_backend-lint");

const MANIFEST: &str = "[package]\nname = \"t\"\nversion = \"0.1.0\"\nedition = \"2021\"\n";

/// A mis-cased literal (a safe fix) and a raw platform (an unsafe one).
const LIB: &str = "\
pub fn canonicalize_platform(p: &str) -> String {
    p.to_lowercase()
}

pub fn is_cuda(name: &str) -> bool {
    canonicalize_platform(name) == \"CUDA\"
}

pub fn is_tpu(d: &Device) -> bool {
    d.platform() == \"tpu\"
}
";

fn package(lib: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "Cargo.toml", MANIFEST);
    write(dir.path(), "src/lib.rs", lib);
    dir
}

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .current_dir(dir)
        .arg("check")
        .args(args)
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .unwrap()
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

#[test]
fn fix_applies_the_safe_fixes_and_says_how_many_unsafe_ones_wait() {
    let dir = package(LIB);
    let out = run(dir.path(), &["--fix"]);
    let lib = read(dir.path(), "src/lib.rs");
    assert!(
        lib.contains("canonicalize_platform(name) == \"cuda\""),
        "{lib}"
    );
    assert!(
        lib.contains("d.platform() == \"tpu\""),
        "unsafe: not applied\n{lib}"
    );
    let err = stderr(&out);
    assert!(
        err.contains("fixed 1 finding in 1 file, 1 left; 1 fix available with `--unsafe-fixes`"),
        "{err}"
    );
    // What is left is reported.
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.contains("uncanonicalized_platform_comparison"),
        "{report}"
    );
}

#[test]
fn unsafe_fixes_are_applied_with_the_flag_and_a_second_run_changes_nothing() {
    let dir = package(LIB);
    let out = run(dir.path(), &["--fix", "--unsafe-fixes"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let fixed = read(dir.path(), "src/lib.rs");
    assert!(
        fixed.contains("canonicalize_platform(d.platform()) == \"tpu\""),
        "{fixed}"
    );
    assert!(stderr(&out).contains("fixed 2 findings in 1 file, 0 left"));
    let again = run(dir.path(), &["--fix", "--unsafe-fixes"]);
    assert_eq!(read(dir.path(), "src/lib.rs"), fixed);
    assert!(stderr(&again).contains("fixed 0 findings in 0 files, 0 left"));
}

#[test]
fn unsafe_fixes_alone_is_an_error() {
    let dir = package(LIB);
    let out = run(dir.path(), &["--unsafe-fixes"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("error: `--unsafe-fixes` only says which fixes to apply"));
    assert_eq!(read(dir.path(), "src/lib.rs"), LIB);
}

#[test]
fn diff_prints_the_changes_and_writes_nothing() {
    let dir = package(LIB);
    let out = run(dir.path(), &["--diff", "--unsafe-fixes"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let diff = String::from_utf8(out.stdout).unwrap();
    assert!(
        diff.starts_with("--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ "),
        "{diff}"
    );
    assert!(
        diff.contains("\n-    canonicalize_platform(name) == \"CUDA\"\n"),
        "{diff}"
    );
    assert!(
        diff.contains("\n+    canonicalize_platform(name) == \"cuda\"\n"),
        "{diff}"
    );
    assert!(diff.contains("\n+    canonicalize_platform(d.platform()) == \"tpu\"\n"));
    assert_eq!(read(dir.path(), "src/lib.rs"), LIB);
    // Nothing to change: exit 0, no diff.
    let clean = package("pub fn f() {}\n");
    let out = run(clean.path(), &["--diff"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
}

/// A BOM and CRLF line endings are kept, also in the `use` a fix adds; the
/// file's permissions too.
#[test]
fn line_endings_a_byte_order_mark_and_permissions_are_kept() {
    use std::os::unix::fs::PermissionsExt;
    let dir = package("pub mod devices;\npub mod platform;\npub mod other;\n");
    write(
        dir.path(),
        "src/platform.rs",
        "pub fn canonicalize_platform(p: &str) -> String {\n    p.to_lowercase()\n}\n",
    );
    write(
        dir.path(),
        "src/other.rs",
        "use crate::platform::canonicalize_platform;\n\npub fn f(p: &str) -> String {\n    canonicalize_platform(p)\n}\n",
    );
    let devices = "\u{feff}//! Devices.\r\n\r\npub fn is_tpu(d: &Device) -> bool {\r\n    d.platform() == \"TPU\"\r\n}\r\n";
    let path = write(dir.path(), "src/devices.rs", devices);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    let out = run(dir.path(), &["--fix", "--unsafe-fixes"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        read(dir.path(), "src/devices.rs"),
        "\u{feff}//! Devices.\r\n\r\nuse crate::platform::canonicalize_platform;\r\npub fn is_tpu(d: &Device) -> bool {\r\n    canonicalize_platform(d.platform()) == \"tpu\"\r\n}\r\n"
    );
    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o640);
}

/// A file edited between the analysis and the write (an editor saving it)
/// is not overwritten: the edit is kept and the file reported.
#[test]
fn a_file_changed_on_disk_since_it_was_read_is_not_written() {
    let dir = package(LIB);
    let path = dir.path().join("src/lib.rs");
    let input = Input::new(path.clone(), "src/lib.rs".into(), 0);
    let options = fix::Options {
        unsafe_fixes: true,
        editable: &|_| true,
    };
    let fixed = fix::fix(vec![input], LINTS, &options, &|_| {});
    assert_eq!(fixed.changes.len(), 1);
    let edited = format!("{LIB}// saved meanwhile\n");
    std::fs::write(&path, &edited).unwrap();
    let not_written = fix::write(&fixed.changes);
    assert_eq!(
        not_written,
        [fix::NotFixed {
            display: "src/lib.rs".into(),
            why: "it changed on disk since it was read; it was not written".into(),
        }]
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
}

/// A file that is a link is never written (that would replace the link by
/// a copy of its target): its findings are not fixed, the run says why,
/// and the summary counts them as left.
#[test]
fn a_link_is_reported_not_fixed_and_its_findings_are_left() {
    let dir = package("mod linked;\n");
    write(dir.path(), ".hidden/real.rs", LIB);
    std::os::unix::fs::symlink("../.hidden/real.rs", dir.path().join("src/linked.rs")).unwrap();
    let out = run(dir.path(), &["--fix"]);
    let err = stderr(&out);
    assert!(
        err.contains("error: `src/linked.rs` was not fixed: it is a link, which a fix would replace by a copy of its target; it was not written"),
        "{err}"
    );
    assert!(err.contains("fixed 0 findings in 0 files, 2 left"), "{err}");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(read(dir.path(), ".hidden/real.rs"), LIB);
    assert!(
        dir.path()
            .join("src/linked.rs")
            .symlink_metadata()
            .unwrap()
            .is_symlink()
    );
}

/// A fix whose result can no longer be analysed (here: wrapping a call in
/// the canonicalizer nests it one bracket deeper than backend-lint reads)
/// is taken back: the file is left as it was, and the run says so.
#[test]
fn a_fixed_text_that_cannot_be_analysed_is_rolled_back() {
    use backend_lint::syntax::limits::MAX_NESTING;
    // The function body is one level, the parentheses the rest: the `()`
    // of `platform()` sits exactly at the bound.
    let depth = MAX_NESTING - 2;
    let lib = format!(
        "pub fn canonicalize_platform(p: &str) -> &str {{\n    p\n}}\n\npub fn f(d: &Device) -> bool {{\n    {}d.platform() == \"tpu\"{}\n}}\n",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    let dir = package(&lib);
    let out = run(dir.path(), &["--quiet"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "analysed as it is: {}",
        stderr(&out)
    );
    let out = run(dir.path(), &["--fix", "--unsafe-fixes"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("error: `src/lib.rs` was not fixed: its fixed text could not be analysed (file nests brackets 2001 levels deep"),
        "{err}"
    );
    assert_eq!(read(dir.path(), "src/lib.rs"), lib);
}

/// SIGKILL (which no process can catch) while `--fix` writes hundreds of
/// files: each file is its old text or its new one, never a mix or a cut.
#[test]
fn a_kill_while_fixing_many_files_leaves_each_file_old_or_new() {
    const FILES: usize = 400;
    let old = |i: usize| {
        format!(
            "pub fn f{i}(name: &str) -> bool {{\n    canonicalize_platform(name) == \"CUDA\"\n}}\n"
        )
    };
    let new = |i: usize| old(i).replace("\"CUDA\"", "\"cuda\"");
    let mut ended_by_signal = 0;
    for round in 0..3 {
        let mods: String = (0..FILES).map(|i| format!("pub mod m{i};\n")).collect();
        let dir = package(&mods);
        for i in 0..FILES {
            write(dir.path(), &format!("src/m{i}.rs"), old(i));
        }
        let mut child = Command::new(BIN)
            .current_dir(dir.path())
            .args(["check", "--fix", "--quiet"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Kill as soon as the first file is written: the others are being
        // written then (each synced to disk, so it takes a while).
        let src = dir.path().join("src");
        let written = || (0..FILES).any(|i| read(&src, &format!("m{i}.rs")) != old(i));
        while !written() && child.try_wait().unwrap().is_none() {}
        child.kill().unwrap();
        let status = child.wait().unwrap();
        ended_by_signal +=
            usize::from(std::os::unix::process::ExitStatusExt::signal(&status).is_some());
        let mut new_files = 0;
        for i in 0..FILES {
            let text = read(&src, &format!("m{i}.rs"));
            assert!(
                text == old(i) || text == new(i),
                "round {round}: m{i}.rs is cut: {text:?}"
            );
            new_files += usize::from(text == new(i));
        }
        assert!(new_files > 0, "round {round}: nothing was written");
    }
    assert!(ended_by_signal > 0, "no run was killed while writing");
}
