//! Fixes as the clients read them: the `rustfix` crate (what `cargo fix`
//! applies) on our rustc JSON, and the fixes in every report format, on
//! `tests/data/fixable` (snapshots `fixable.*`).

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::process::Command;

use serde_json::Value;

mod common;
use common::{copy_dir, root, snapshot};

fn bin(dir: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_backend-lint"));
    cmd.current_dir(dir).env_remove("GITHUB_STEP_SUMMARY");
    cmd
}

/// `check <paths>` in `dir` in a format: stdout.
fn check(dir: &Path, paths: &[&str], format: &str) -> String {
    let out = bin(dir)
        .arg("check")
        .args(paths)
        .args(["--format", format, "--color", "never"])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

/// The fixtures the fixes are tried on, copied into `dir`: the fixable
/// crate and the bad fixtures of the two suppression lints.
fn copies(dir: &Path) -> Vec<&'static str> {
    copy_dir(&root().join("tests/data/fixable"), &dir.join("fixable"));
    for lint in ["unused_suppression", "invalid_suppression"] {
        let to = dir.join(lint);
        std::fs::create_dir_all(&to).unwrap();
        std::fs::copy(
            root().join("lints").join(lint).join("bad.rs"),
            to.join("bad.rs"),
        )
        .unwrap();
    }
    vec!["fixable", "unused_suppression", "invalid_suppression"]
}

/// The text of each file (as the report names it) once `rustfix` applied
/// the suggestions `check --message-format json` gives for it, safe
/// (`MachineApplicable`) and unsafe (`MaybeIncorrect`) ones: what
/// `--fix --unsafe-fixes` is to write.
fn rustfix_applied(dir: &Path, paths: &[&str]) -> BTreeMap<String, String> {
    let out = bin(dir)
        .arg("check")
        .args(paths)
        .args(["--message-format", "json"])
        .output()
        .unwrap();
    let mut by_file: BTreeMap<String, Vec<rustfix::Suggestion>> = BTreeMap::new();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let mut diagnostic: Value = serde_json::from_str(line).unwrap();
        // `Filter::Everything` would take display-only fixes too.
        for child in diagnostic["children"].as_array_mut().unwrap() {
            child["spans"].as_array_mut().unwrap().retain(|s| {
                s["suggestion_applicability"].is_null()
                    || s["suggestion_applicability"] == "MachineApplicable"
                    || s["suggestion_applicability"] == "MaybeIncorrect"
            });
        }
        let suggestions = rustfix::get_suggestions_from_json(
            &diagnostic.to_string(),
            &HashSet::<String>::new(),
            rustfix::Filter::Everything,
        )
        .unwrap();
        for s in suggestions {
            let file = s.solutions[0].replacements[0].snippet.file_name.clone();
            by_file.entry(file).or_default().push(s);
        }
    }
    by_file
        .into_iter()
        .map(|(file, suggestions)| {
            let text = std::fs::read_to_string(dir.join(&file)).unwrap();
            let fixed = rustfix::apply_suggestions(&text, &suggestions)
                .unwrap_or_else(|e| panic!("{file}: rustfix cannot apply: {e}"));
            (file, fixed)
        })
        .collect()
}

/// The findings of the suppression lints in a JSON report: lint and message
/// (lines move when a fix removes one), and whether it has a fix to apply.
fn suppression_findings(json: &str) -> Vec<(String, String, bool)> {
    let report: Value = serde_json::from_str(json).unwrap();
    let mut out: Vec<(String, String, bool)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["lint"].as_str().unwrap().ends_with("_suppression"))
        .map(|d| {
            (
                d["lint"].as_str().unwrap().to_string(),
                d["message"].as_str().unwrap().to_string(),
                !d["fix"].is_null() && d["fix"]["applicability"] != "display-only",
            )
        })
        .collect();
    out.sort();
    out
}

/// rustfix applied as `cargo fix` applies it: again on the new text until
/// nothing changes (a fix can make another finding: a duplicate removed
/// leaves the suppression comment above it unused), as `--fix` goes in
/// passes. Every file changed, with its final text.
fn rustfix_until_done(dir: &Path, paths: &[&str]) -> BTreeMap<String, String> {
    let mut done = BTreeMap::new();
    for _ in 0..10 {
        let mut changed = false;
        for (file, text) in rustfix_applied(dir, paths) {
            let path = dir.join(&file);
            if std::fs::read_to_string(&path).unwrap() != text {
                std::fs::write(&path, &text).unwrap();
                done.insert(file, text);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    done
}

#[test]
fn rustfix_applies_the_suggestions_and_the_findings_go() {
    let dir = tempfile::tempdir().unwrap();
    let paths = copies(dir.path());
    let before = suppression_findings(&check(dir.path(), &paths, "json"));
    assert!(before.iter().filter(|f| f.2).count() >= 7, "{before:?}");
    let fixed = rustfix_until_done(dir.path(), &paths);
    assert_eq!(fixed.len(), 4, "{:?}", fixed.keys());
    for (file, text) in &fixed {
        syn::parse_file(text.trim_start_matches('\u{feff}'))
            .unwrap_or_else(|e| panic!("{file} does not parse once fixed: {e}\n{text}"));
    }
    // What had a fix is gone; what had none (an unreadable comment, a name
    // close to no lint) stays.
    let after = suppression_findings(&check(dir.path(), &paths, "json"));
    let unfixable: Vec<_> = before.into_iter().filter(|f| !f.2).collect();
    assert_eq!(after, unfixable);
    snapshot("fixable.rustfix.txt", &fixed["fixable/src/lib.rs"]);
    // The whole first line goes, after the byte-order mark and with its CRLF.
    assert_eq!(
        fixed["fixable/src/crlf.rs"],
        "\u{feff}pub fn tpu(d: &Device) -> bool {\r\n    canonicalize_platform(d.platform()) == \"tpu\"\r\n}\r\n"
    );
}

/// The fixable crate's report in `format`, run from the repository root.
fn fixable(format: &str) -> String {
    check(&root(), &["tests/data/fixable"], format)
}

#[test]
fn human_report_shows_each_fix_as_a_diff() {
    let text = fixable("human");
    snapshot("fixable.human", &text);
    assert!(text.contains(concat!(
        "  fix (safe): remove `duplicate_registration` from the comment\n",
        "  16 -     d.platform() == \"cuda\" // backend-lint: allow(uncanonicalized_platform_comparison, duplicate_registration) -- raw on purpose\n",
        "     +     d.platform() == \"cuda\" // backend-lint: allow(uncanonicalized_platform_comparison) -- raw on purpose\n",
    )));
    assert!(text.contains(
        "  fix (unsafe): replace `duplicate_registrations` with `duplicate_registration`\n"
    ));
}

#[test]
fn short_report_marks_what_fix_fixes() {
    let text = fixable("short");
    snapshot("fixable.short", &text);
    // Safe fixes only: `--fix` does not apply the unsafe one, nor remove
    // the unused comment that gives a reason.
    assert_eq!(text.matches(": [*] ").count(), 4, "{text}");
    assert!(text.contains("warning[invalid_suppression]: unknown lint"));
}

/// Each edit's range, read back from the file, and its replacement.
fn edit_of(edit: &Value) -> (String, String) {
    let span = &edit["span"];
    let text = std::fs::read_to_string(root().join(span["file"].as_str().unwrap())).unwrap();
    let (start, end) = (
        span["byte_start"].as_u64().unwrap() as usize,
        span["byte_end"].as_u64().unwrap() as usize,
    );
    (
        text[start..end].to_string(),
        edit["replacement"].as_str().unwrap().to_string(),
    )
}

#[test]
fn json_report_has_a_fix_object() {
    let text = fixable("json");
    snapshot("fixable.json", &text);
    let report: Value = serde_json::from_str(&text).unwrap();
    let diagnostics = report["diagnostics"].as_array().unwrap();
    let typo = diagnostics
        .iter()
        .find(|d| d["lint"] == "invalid_suppression")
        .unwrap();
    assert_eq!(typo["fix"]["applicability"], "unsafe");
    assert_eq!(
        edit_of(&typo["fix"]["edits"][0]),
        (
            "duplicate_registrations".to_string(),
            "duplicate_registration".to_string()
        )
    );
    let trailing = diagnostics
        .iter()
        .find(|d| d["span"]["line"] == 20)
        .unwrap();
    assert_eq!(trailing["fix"]["applicability"], "safe");
    assert_eq!(trailing["fix"]["message"], "remove the comment");
    assert_eq!(
        edit_of(&trailing["fix"]["edits"][0]),
        (
            " // backend-lint: allow(uncanonicalized_platform_comparison)".to_string(),
            String::new()
        )
    );
    let registration = diagnostics
        .iter()
        .find(|d| d["lint"] == "duplicate_registration")
        .unwrap();
    // Removing a registration is never safe (the second may be the one
    // meant), and this one is under a suppression comment whose misspelled
    // name a fix corrects: it is not fixed meanwhile, the fix only shown.
    assert_eq!(registration["fix"]["applicability"], "display-only");
    assert_eq!(
        registration["fix"]["message"],
        "remove the repeated registration"
    );
}

#[test]
fn sarif_report_has_fixes() {
    let sarif: Value = serde_json::from_str(&fixable("sarif")).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let fixes: Vec<&Value> = results.iter().filter_map(|r| r.get("fixes")).collect();
    assert_eq!(fixes.len(), 7);
    snapshot(
        "fixable.sarif-fixes.json",
        &(serde_json::to_string_pretty(&fixes).unwrap() + "\n"),
    );
    let typo = results
        .iter()
        .find(|r| r["ruleId"] == "invalid_suppression")
        .unwrap();
    let fix = &typo["fixes"][0];
    assert_eq!(
        fix["description"]["text"],
        "replace `duplicate_registrations` with `duplicate_registration` (unsafe fix)"
    );
    let change = &fix["artifactChanges"][0];
    assert_eq!(
        change["artifactLocation"]["uri"],
        "tests/data/fixable/src/lib.rs"
    );
    let replacement = &change["replacements"][0];
    let text = std::fs::read_to_string(root().join("tests/data/fixable/src/lib.rs")).unwrap();
    let region = &replacement["deletedRegion"];
    let start = region["byteOffset"].as_u64().unwrap() as usize;
    let len = region["byteLength"].as_u64().unwrap() as usize;
    assert_eq!(&text[start..start + len], "duplicate_registrations");
    assert_eq!(
        replacement["insertedContent"]["text"],
        "duplicate_registration"
    );
}

#[test]
fn rustc_json_carries_suggestions() {
    let text = fixable("rustc");
    snapshot("fixable.rustc.jsonl", &text);
    let mut applicabilities = Vec::new();
    for line in text.lines() {
        // As cargo and rust-analyzer read it.
        let d: cargo_metadata::diagnostic::Diagnostic = serde_json::from_str(line).unwrap();
        for child in &d.children {
            for span in child
                .spans
                .iter()
                .filter(|s| s.suggested_replacement.is_some())
            {
                applicabilities.push(format!(
                    "{:?}",
                    span.suggestion_applicability.clone().unwrap()
                ));
            }
        }
    }
    applicabilities.sort();
    assert_eq!(
        applicabilities,
        // The display-only ones: the registration under the comment being
        // corrected, the unused comment that gives a reason.
        ["MachineApplicable"; 4]
            .into_iter()
            .chain(["MaybeIncorrect"; 1])
            .chain(["Unspecified"; 2])
            .collect::<Vec<_>>()
    );
}

/// `check --add-suppressions` in `dir`: exit code and stderr.
fn add_suppressions(dir: &Path) -> (i32, String) {
    let out = bin(dir)
        .args(["check", "--add-suppressions"])
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Lint and message of each finding of a JSON report.
fn findings(json: &str) -> Vec<(String, String)> {
    let report: Value = serde_json::from_str(json).unwrap();
    let mut out: Vec<(String, String)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["lint"].as_str().unwrap().to_string(),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn add_suppressions_silences_every_finding_of_the_demo() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("examples/demo/src"), &dir.path().join("src"));
    std::fs::copy(
        root().join("examples/demo/Cargo.toml"),
        dir.path().join("Cargo.toml"),
    )
    .unwrap();
    let before = findings(&check(dir.path(), &[], "json"));
    let (code, stderr) = add_suppressions(dir.path());
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("added 6 suppression comments in 4 files"),
        "{stderr}"
    );
    let out = bin(dir.path())
        .args(["check", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    // Left: only the findings about the demo's own stale and misspelled
    // comments, which no comment covers; every comment added is used.
    let after = findings(&String::from_utf8(out.stdout).unwrap());
    let about_comments: Vec<_> = before
        .into_iter()
        .filter(|(lint, _)| lint.ends_with("_suppression"))
        .collect();
    assert_eq!(after, about_comments);
    assert_eq!(after.len(), 2);
    // A second run has nothing to add.
    let (code, stderr) = add_suppressions(dir.path());
    assert_eq!(code, 0);
    assert!(
        stderr.contains("added 0 suppression comments in 0 files"),
        "{stderr}"
    );
}

#[test]
fn add_suppressions_keeps_bom_line_endings_and_permissions_and_extends_comments() {
    let dir = tempfile::tempdir().unwrap();
    let file = common::write(
        dir.path(),
        "src/lib.rs",
        concat!(
            "\u{feff}pub fn init(r: &mut Registry) {\r\n",
            "\tr.register_backend(\"cuda\", f);\r\n",
            "\t// backend-lint: allow(lowering_backend_mismatch) -- kept\r\n",
            "\tr.register_backend(\"cuda\", f);\r\n",
            "}\r\n",
        ),
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    }
    let (code, stderr) = add_suppressions(dir.path());
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("added 0 suppression comments, extended 1 existing comment in 1 file"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        concat!(
            "\u{feff}pub fn init(r: &mut Registry) {\r\n",
            "\tr.register_backend(\"cuda\", f);\r\n",
            "\t// backend-lint: allow(lowering_backend_mismatch, duplicate_registration) -- kept\r\n",
            "\tr.register_backend(\"cuda\", f);\r\n",
            "}\r\n",
        )
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
    }
}

/// Every lint's `bad*.rs` fixtures, each in a folder of its own (a crate),
/// and the fixable crate, copied into `dir`; the folders, for `check`.
fn every_bad_fixture(dir: &Path) -> Vec<String> {
    copy_dir(&root().join("tests/data/fixable"), &dir.join("fixable"));
    let mut folders = vec!["fixable".to_string()];
    for lint in std::fs::read_dir(root().join("lints")).unwrap() {
        let lint = lint.unwrap().path();
        for file in std::fs::read_dir(&lint).unwrap() {
            let file = file.unwrap().path();
            let name = file.file_name().unwrap().to_string_lossy().to_string();
            if !(name.starts_with("bad") && name.ends_with(".rs")) {
                continue;
            }
            let folder = format!(
                "{}-{}",
                lint.file_name().unwrap().to_string_lossy(),
                name.trim_end_matches(".rs")
            );
            std::fs::create_dir_all(dir.join(&folder)).unwrap();
            std::fs::copy(&file, dir.join(&folder).join("lib.rs")).unwrap();
            folders.push(folder);
        }
    }
    folders
}

/// Every file under `dir`, by path relative to it, with its bytes.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir(dir)
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, std::fs::read(&p).unwrap())
        })
        .collect()
}

fn walkdir(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walkdir(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// What rust-analyzer and `cargo fix` apply from our rustc JSON is what
/// `--fix --unsafe-fixes` writes, byte for byte: rustfix is run as cargo fix
/// runs it, again on the new text until nothing changes (as `--fix` goes
/// in passes), on every bad fixture of every lint.
#[test]
fn rustfix_writes_byte_for_byte_what_fix_writes() {
    let ours = tempfile::tempdir().unwrap();
    let theirs = tempfile::tempdir().unwrap();
    let folders = every_bad_fixture(ours.path());
    every_bad_fixture(theirs.path());
    let paths: Vec<&str> = folders.iter().map(String::as_str).collect();

    let status = bin(ours.path())
        .arg("check")
        .args(&paths)
        .args(["--fix", "--unsafe-fixes", "--quiet"])
        .output()
        .unwrap()
        .status;
    assert!(status.code().is_some_and(|c| c < 2), "{status}");

    rustfix_until_done(theirs.path(), &paths);
    let (ours, theirs) = (tree(ours.path()), tree(theirs.path()));
    assert_eq!(ours.len(), theirs.len());
    let differ: Vec<&String> = ours.keys().filter(|k| ours[*k] != theirs[*k]).collect();
    assert!(
        differ.is_empty(),
        "`--fix` and rustfix differ on {differ:?}"
    );
    // The run changed something: the comparison is not of two copies.
    let originals = {
        let dir = tempfile::tempdir().unwrap();
        every_bad_fixture(dir.path());
        tree(dir.path())
    };
    let changed = ours.keys().filter(|k| ours[*k] != originals[*k]).count();
    assert!(changed >= 10, "only {changed} files fixed");
}
