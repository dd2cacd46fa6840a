//! The binaries as users run them: exit codes, formats, subcommands, bad input.

use assert_cmd::Command;
use serde_json::Value;

mod common;
use common::{root, snapshot, write};

fn bin() -> Command {
    let mut cmd = Command::cargo_bin("backend-lint").unwrap();
    cmd.current_dir(root()).env_remove("GITHUB_STEP_SUMMARY");
    cmd
}

/// Run `check` on the sample crate in a format; returns (stdout, exit code).
fn sample(format: &str) -> (String, i32) {
    let out = bin()
        .args(["check", "tests/data/sample", "--format", format])
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap(),
    )
}

const CLEAN: &str =
    "pub fn pick(d: &Device) -> bool { canonicalize_platform(d.platform()) == \"cuda\" }\n";
const BUGGY: &str = "pub fn pick(d: &Device) -> bool { d.platform() == \"gpu\" }\n";

#[test]
fn exit_code_is_0_when_clean() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "lib.rs", CLEAN);
    bin().arg("check").arg(dir.path()).assert().code(0);
}

#[test]
fn exit_code_is_1_with_findings() {
    let (out, code) = sample("short");
    assert_eq!(code, 1);
    assert_eq!(out.lines().count(), 2, "{out}");
}

#[test]
fn exit_code_is_2_on_usage_errors() {
    bin().args(["check", "--format", "xml"]).assert().code(2);
    bin().args(["frobnicate"]).assert().code(2);
    bin()
        .args(["check", "does/not/exist"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("does/not/exist"));
}

#[test]
fn a_file_named_twice_is_checked_once_where_first_named() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a/lib.rs", BUGGY);
    write(dir.path(), "a/quiet.rs", "fn f() {}\n");
    write(dir.path(), "a/broken.rs", "fn broken( {\n");
    std::fs::create_dir(dir.path().join("b")).unwrap();
    std::fs::hard_link(dir.path().join("a/lib.rs"), dir.path().join("b/lib.rs")).unwrap();
    // A hard link is one file by its inode; other systems compare paths.
    let linked = cfg!(unix);
    for mode in [None, Some("--no-prefilter")] {
        let out = bin()
            .current_dir(dir.path())
            .args(["check", "a", "a/lib.rs", "./a/quiet.rs", "a/broken.rs"])
            .args(["b/lib.rs", "--format", "json"])
            .args(mode)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{mode:?}");
        let json: Value = serde_json::from_slice(&out.stdout).unwrap();
        let files = if linked { 3 } else { 4 };
        // broken.rs is read but could not be analysed: not counted as checked.
        assert_eq!(json["summary"]["files_checked"], files - 1, "{mode:?}");
        let diagnostics = json["diagnostics"].as_array().unwrap();
        assert_eq!(diagnostics.len(), files - 2, "{mode:?}: {diagnostics:?}");
        assert_eq!(diagnostics[0]["span"]["file"], "a/lib.rs", "{mode:?}");
        let errors = json["errors"].as_array().unwrap();
        assert_eq!(errors.len(), 1, "{mode:?}: {errors:?}");
    }
}

#[test]
fn unparsable_and_non_utf8_files_do_not_stop_the_others() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a_broken.rs", "fn broken( {\n");
    write(dir.path(), "b_latin1.rs", b"// caf\xe9\nfn f() {}\n");
    write(dir.path(), "c_buggy.rs", BUGGY);
    let out = bin()
        .args(["check", "--format", "json"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "a file that was not analysed makes the run exit 2"
    );
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let errors = json["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 2);
    assert!(errors[0]["file"].as_str().unwrap().ends_with("a_broken.rs"));
    let message = errors[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("could not parse file: the file does not tokenize: an unclosed"),
        "{message}"
    );
    assert_eq!(errors[0]["span"]["line"], 1);
    assert!(
        errors[1]["message"]
            .as_str()
            .unwrap()
            .contains("not valid UTF-8")
    );
    let diags = json["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "the good file is still reported");
    assert!(
        diags[0]["span"]["file"]
            .as_str()
            .unwrap()
            .ends_with("c_buggy.rs")
    );

    // The human report names both problems, and the finding.
    let out = bin()
        .args(["check", "--color", "never"])
        .arg(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("could not parse file"), "{text}");
    assert!(text.contains("not valid UTF-8"), "{text}");
    assert!(
        text.contains("uncanonicalized_platform_comparison"),
        "{text}"
    );
}

#[test]
fn deeply_nested_and_huge_files_are_handled() {
    let dir = tempfile::tempdir().unwrap();
    // Deeper than anyone writes: refused with an error, never a crash.
    let depth = 20_000;
    let nested = format!(
        "fn f() {{ let x = {}1{}; }}\n",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    write(dir.path(), "nested.rs", nested);
    let blocks = format!("fn g() {}{}\n", "{ ".repeat(depth), " }".repeat(depth));
    write(dir.path(), "blocks.rs", blocks);
    let huge = "// padding\n".repeat(3_200_000);
    write(dir.path(), "huge.rs", huge);
    // Generic arguments nest as deep (400 KB of `Option<`).
    let generics = format!(
        "type T = {}u8{};\n",
        "Option<".repeat(50_000),
        ">".repeat(50_000)
    );
    write(dir.path(), "generics.rs", generics);
    // Deep, but within the bound: analysed.
    let ok_depth = 1_500;
    write(
        dir.path(),
        "ok_nested.rs",
        format!(
            "fn h() {{ let x = {}1{}; }}\n",
            "(".repeat(ok_depth),
            ")".repeat(ok_depth)
        ),
    );
    write(dir.path(), "z_buggy.rs", BUGGY);
    let out = bin()
        .args(["check", "--format", "json"])
        .arg(dir.path())
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).expect("no crash: JSON was printed");
    assert_eq!(out.status.code(), Some(2));
    let errors = json["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 4, "{errors:?}");
    assert!(errors[0]["file"].as_str().unwrap().ends_with("blocks.rs"));
    let generics = errors
        .iter()
        .find(|e| e["file"].as_str().unwrap().ends_with("generics.rs"))
        .unwrap();
    assert!(
        generics["message"]
            .as_str()
            .unwrap()
            .contains("levels deep")
    );
    assert!(
        errors[0]["message"]
            .as_str()
            .unwrap()
            .contains("levels deep")
    );
    assert!(
        errors[2]["message"]
            .as_str()
            .unwrap()
            .contains("over the 32 MiB limit")
    );
    assert!(
        errors[3]["message"]
            .as_str()
            .unwrap()
            .contains("levels deep")
    );
    assert_eq!(json["diagnostics"].as_array().unwrap().len(), 1);
}

#[test]
fn short_format() {
    let (out, _) = sample("short");
    snapshot("sample.short", &out);
    let first = out.lines().next().unwrap();
    assert!(first.starts_with(
        "tests/data/sample/src/lib.rs:9:29: error[uncanonicalized_platform_comparison]: "
    ));
}

#[test]
fn human_format() {
    let out = bin()
        .args(["check", "tests/data/sample", "--color", "never"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    snapshot("sample.human", &text);
    // Cross-file label: the first registration is shown from its own file.
    assert!(
        text.contains("first registered here (tests/data/sample/src/lib.rs:5:31)"),
        "{text}"
    );
}

#[test]
fn json_format() {
    let (out, code) = sample("json");
    assert_eq!(code, 1);
    snapshot("sample.json", &out);
    let json: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["version"], 1);
    assert_eq!(json["tool"]["name"], "backend-lint");
    assert_eq!(json["summary"]["files_checked"], 2);
    assert_eq!(json["summary"]["diagnostics"], 2);
    let d = &json["diagnostics"][1];
    assert_eq!(d["lint"], "duplicate_registration");
    assert_eq!(d["severity"], "error");
    assert_eq!(
        d["message"],
        "`cuda` is registered twice with `register_backend`"
    );
    assert_eq!(d["label"], "registered again here");
    assert!(
        d["help"]
            .as_str()
            .unwrap()
            .starts_with("remove one registration")
    );
    let span = &d["span"];
    assert_eq!(span["file"], "tests/data/sample/src/names.rs");
    assert_eq!(
        (span["line"].as_u64(), span["column"].as_u64()),
        (Some(4), Some(31))
    );
    assert_eq!(
        (span["end_line"].as_u64(), span["end_column"].as_u64()),
        (Some(4), Some(35))
    );
    let text = std::fs::read_to_string(root().join("tests/data/sample/src/names.rs")).unwrap();
    let (start, end) = (
        span["byte_start"].as_u64().unwrap() as usize,
        span["byte_end"].as_u64().unwrap() as usize,
    );
    assert_eq!(&text[start..end], "CUDA");
    let label = &d["labels"][0];
    assert_eq!(label["message"], "first registered here");
    assert_eq!(label["span"]["file"], "tests/data/sample/src/lib.rs");
    assert_eq!(label["span"]["line"], 5);
}

#[test]
fn sarif_format() {
    let (out, code) = sample("sarif");
    assert_eq!(code, 1);
    let sarif: Value = serde_json::from_str(&out).unwrap();
    // The snapshot leaves out the rules' documentation (it has its own files).
    let mut shown = sarif.clone();
    for rule in shown["runs"][0]["tool"]["driver"]["rules"]
        .as_array_mut()
        .unwrap()
    {
        rule["help"] = Value::String("[lints/<name>/README.md]".into());
        rule["fullDescription"]["text"] = Value::String("[What it does]".into());
    }
    snapshot(
        "sample.sarif",
        &(serde_json::to_string_pretty(&shown).unwrap() + "\n"),
    );
    assert_eq!(sarif["version"], "2.1.0");
    assert!(sarif["$schema"].as_str().unwrap().contains("sarif-2.1.0"));
    let run = &sarif["runs"][0];
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "backend-lint");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    assert!(
        driver["informationUri"]
            .as_str()
            .unwrap()
            .starts_with("https://")
    );
    let rules = driver["rules"].as_array().unwrap();
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    let names: Vec<&str> = backend_lint::lints::LINTS
        .iter()
        .map(|l| l.name())
        .collect();
    assert_eq!(ids, names, "one rule per lint");
    for r in rules {
        assert_ne!(
            r["name"], r["id"],
            "SARIF wants a name that differs from the id"
        );
        assert!(r["shortDescription"]["text"].is_string());
        assert!(r["fullDescription"]["text"].is_string());
        assert!(
            r["help"]["markdown"]
                .as_str()
                .unwrap()
                .contains("## What it does")
        );
        let lint = backend_lint::lints::find(r["id"].as_str().unwrap()).unwrap();
        assert_eq!(
            r["defaultConfiguration"]["level"],
            lint.id.default_level().severity().unwrap().as_str()
        );
    }
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    let r = &results[1];
    assert_eq!(r["ruleId"], "duplicate_registration");
    assert_eq!(
        rules[r["ruleIndex"].as_u64().unwrap() as usize]["id"],
        r["ruleId"]
    );
    assert_eq!(r["level"], "error");
    let loc = &r["locations"][0]["physicalLocation"];
    assert_eq!(
        loc["artifactLocation"]["uri"],
        "tests/data/sample/src/names.rs"
    );
    assert_eq!(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(loc["region"]["startLine"], 4);
    assert_eq!(loc["region"]["startColumn"], 31);
    assert_eq!(loc["region"]["endLine"], 4);
    assert_eq!(loc["region"]["endColumn"], 35);
    assert_eq!(
        r["relatedLocations"][0]["message"]["text"],
        "first registered here"
    );
    assert!(r["partialFingerprints"]["primaryLocationLineHash"].is_string());
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
}

#[test]
fn sarif_fingerprints_survive_unrelated_lines_moving() {
    let dir = tempfile::tempdir().unwrap();
    let fingerprint = |text: &str| {
        write(dir.path(), "lib.rs", text);
        let out = bin()
            .args(["check", "--format", "sarif"])
            .arg(dir.path())
            .output()
            .unwrap();
        let sarif: Value = serde_json::from_slice(&out.stdout).unwrap();
        let r = &sarif["runs"][0]["results"][0];
        (
            r["partialFingerprints"]["primaryLocationLineHash"]
                .as_str()
                .unwrap()
                .to_string(),
            r["locations"][0]["physicalLocation"]["region"]["startLine"]
                .as_u64()
                .unwrap(),
        )
    };
    let (before, line_before) = fingerprint(BUGGY);
    let (after, line_after) = fingerprint(&format!("// a new comment\n\nuse std::fmt;\n{BUGGY}"));
    assert_eq!(line_after, line_before + 3);
    assert_eq!(before, after);
}

#[test]
fn github_format() {
    let (out, code) = sample("github");
    assert_eq!(code, 1);
    snapshot("sample.github", &out);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].starts_with(
        "::error file=tests/data/sample/src/lib.rs,line=9,endLine=9,col=29,endColumn=41,title=backend-lint%3A uncanonicalized_platform_comparison::"
    ));
    assert!(lines[0].contains("%0Ahelp: "), "newlines are escaped");
    assert!(lines[2].starts_with("::notice title=backend-lint::2 errors"));
}

#[test]
fn lints_lists_every_lint() {
    let out = bin().arg("lints").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    for lint in backend_lint::lints::LINTS {
        let line = text
            .lines()
            .find(|l| l.starts_with(lint.name()))
            .expect("listed");
        // The configuration's words (`deny`, `warn`), not the report's.
        let level = lint.id.default_level();
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[1], level.as_str(), "{line}");
        assert!(line.ends_with(lint.summary), "{line}");
    }
}

#[test]
fn explain_prints_the_docs() {
    let out = bin()
        .args(["explain", "duplicate_registration"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("# duplicate_registration"));
    assert!(text.contains("## Why is this bad?"));
    bin()
        .args(["explain", "no_such_lint"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no lint named `no_such_lint`"));
}

#[test]
fn cargo_subcommand_drops_its_name() {
    let mut cmd = Command::cargo_bin("cargo-backend-lint").unwrap();
    cmd.current_dir(root())
        .args([
            "backend-lint",
            "check",
            "tests/data/sample",
            "--format",
            "short",
        ])
        .assert()
        .code(1);
    let mut cmd = Command::cargo_bin("cargo-backend-lint").unwrap();
    cmd.args(["backend-lint", "--version"])
        .assert()
        .code(0)
        .stdout(predicates::str::contains(env!("CARGO_PKG_VERSION")));
}

#[test]
fn demo_crate_shows_every_lint() {
    let out = bin()
        .args(["check", "examples/demo", "--color", "never"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    for lint in backend_lint::lints::LINTS {
        assert!(
            text.contains(&format!("backend_lint::{}", lint.name())),
            "demo lacks {}",
            lint.name()
        );
    }
    assert!(text.contains("╭─["), "source excerpts are shown");
}

#[test]
fn gitlab_format() {
    let (out, code) = sample("gitlab");
    assert_eq!(code, 1);
    snapshot("sample.gitlab", &out);
    let issues: Vec<Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(issues.len(), 2);
    let i = &issues[1];
    assert_eq!(i["type"], "issue");
    assert_eq!(i["check_name"], "duplicate_registration");
    assert_eq!(i["severity"], "major");
    assert_eq!(i["location"]["path"], "tests/data/sample/src/names.rs");
    assert_eq!(i["location"]["lines"]["begin"], 4);
    assert!(i["fingerprint"].as_str().unwrap().ends_with(":1"));
    assert_ne!(issues[0]["fingerprint"], issues[1]["fingerprint"]);
}

/// rust-analyzer reads each line as a cargo message or, failing that, as a
/// bare rustc diagnostic (its flycheck's untagged `JsonMessage`).
#[derive(serde::Deserialize)]
#[serde(untagged)]
#[allow(dead_code, clippy::large_enum_variant)]
enum RustAnalyzerMessage {
    Cargo(cargo_metadata::Message),
    Rustc(cargo_metadata::diagnostic::Diagnostic),
}

#[test]
fn rustc_json_for_editors() {
    let out = bin()
        .args(["check", "tests/data/sample", "--message-format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    snapshot("sample.rustc.jsonl", &text);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    for line in &lines {
        let d: cargo_metadata::diagnostic::Diagnostic =
            serde_json::from_str(line).expect("a rustc diagnostic");
        assert_eq!(d.level, cargo_metadata::diagnostic::DiagnosticLevel::Error);
        assert!(d.code.as_ref().unwrap().code.starts_with("backend_lint::"));
        assert!(d.spans.iter().any(|s| s.is_primary));
        assert!(
            d.children
                .iter()
                .any(|c| c.level == cargo_metadata::diagnostic::DiagnosticLevel::Help)
        );
        assert!(d.rendered.as_ref().unwrap().contains("-->"));
        match serde_json::from_str::<RustAnalyzerMessage>(line).unwrap() {
            RustAnalyzerMessage::Rustc(_) => {}
            RustAnalyzerMessage::Cargo(_) => panic!("read as a cargo message"),
        }
    }
    let dup: cargo_metadata::diagnostic::Diagnostic = serde_json::from_str(lines[1]).unwrap();
    let primary = dup.spans.iter().find(|s| s.is_primary).unwrap();
    assert_eq!(primary.file_name, "tests/data/sample/src/names.rs");
    assert_eq!(
        (primary.line_start, primary.column_start, primary.column_end),
        (4, 31, 35)
    );
    assert_eq!(
        primary.text[0].text,
        "    REGISTRY.register_backend(CUDA, make_cuda);"
    );
    assert_eq!(dup.children[0].message, "first registered here");
    assert_eq!(
        dup.children[0].spans[0].file_name,
        "tests/data/sample/src/lib.rs"
    );
}

#[test]
fn several_outputs_in_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let sarif = dir.path().join("report.sarif");
    let short = dir.path().join("report.txt");
    let out = bin()
        .args(["check", "tests/data/sample", "--color", "never", "--output"])
        .arg(format!("sarif={}", sarif.display()))
        .arg("--output")
        .arg(format!("short={}", short.display()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8(out.stdout).unwrap().contains("╭─["),
        "human report on stdout"
    );
    let sarif: Value = serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
    assert_eq!(sarif["runs"][0]["results"].as_array().unwrap().len(), 2);
    assert_eq!(std::fs::read_to_string(&short).unwrap(), sample("short").0);

    bin().args(["check", "--output", "xml=x"]).assert().code(2);
    bin()
        .args([
            "check",
            "tests/data/sample",
            "--output",
            "sarif=/nonexistent/dir/r.sarif",
        ])
        .assert()
        .code(2);
}

#[test]
fn github_step_summary_gets_a_table() {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("summary.md");
    std::fs::write(&summary, "earlier step\n").unwrap();
    bin()
        .args(["check", "tests/data/sample", "--format", "github"])
        .env("GITHUB_STEP_SUMMARY", &summary)
        .assert()
        .code(1);
    let text = std::fs::read_to_string(&summary).unwrap();
    assert!(
        text.starts_with("earlier step\n### backend-lint: 2 findings"),
        "{text}"
    );
    assert!(
        text.contains("| `tests/data/sample/src/names.rs:4:31` | `duplicate_registration` |"),
        "{text}"
    );
}

#[test]
fn ci_paths_are_relative_to_the_repository_root() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path();
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    write(repo, "crates/x/src/lib.rs", BUGGY);
    let mut cmd = Command::cargo_bin("backend-lint").unwrap();
    let out = cmd
        .current_dir(repo.join("crates/x"))
        .args(["check", "src", "--format", "github"])
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("::error file=crates/x/src/lib.rs,"),
        "{text}"
    );
    let mut cmd = Command::cargo_bin("backend-lint").unwrap();
    let out = cmd
        .current_dir(repo.join("crates/x"))
        .args(["check", "src", "--format", "sarif"])
        .output()
        .unwrap();
    let sarif: Value = serde_json::from_slice(&out.stdout).unwrap();
    let loc =
        &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(loc["uri"], "crates/x/src/lib.rs");
    assert_eq!(loc["uriBaseId"], "%SRCROOT%");
    let base = sarif["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .unwrap();
    assert!(
        base.starts_with("file:///") && base.ends_with('/'),
        "{base}"
    );
}

#[test]
fn columns_count_characters_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    // Non-ASCII before the finding, and a byte-order mark.
    write(
        dir.path(),
        "uni.rs",
        "\u{feff}fn f(ё: &D) -> bool { let 名 = \"日\"; ё.platform() == \"cuda\" }\n",
    );
    let run = |format: &str| {
        let out = bin()
            .args(["check", "--color", "never", "--format", format])
            .arg(dir.path().join("uni.rs"))
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    // 35 characters come before `ё.platform()`, the BOM not counted: column 36.
    assert!(
        run("short").contains("uni.rs:1:36: error"),
        "{}",
        run("short")
    );
    assert!(run("human").contains("uni.rs:1:36]"), "{}", run("human"));
    let json: Value = serde_json::from_str(&run("json")).unwrap();
    assert_eq!(json["diagnostics"][0]["span"]["column"], 36);
}

#[test]
fn a_report_that_cannot_be_written_is_exit_2_not_a_panic() {
    let full = std::fs::File::create("/dev/full").expect("/dev/full exists on Linux");
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("backend-lint"))
        .current_dir(root())
        .args(["check", "tests/data/sample", "--format", "short"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("error: cannot write to standard output"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");

    // A closed pipe is no failure to write: the reader stopped reading
    // (`| head`); the run ends quietly with the exit code of its findings.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("backend-lint"))
        .current_dir(root())
        .args(["check", "tests/data/sample", "--format", "json"])
        .stdout(writer)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn nothing_to_check_is_an_error_not_a_clean_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin().arg("check").arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("error: no Rust files to check under"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn explain_takes_the_name_as_reports_print_it() {
    let out = bin()
        .args(["explain", "backend_lint::duplicate_registration"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("# duplicate_registration"));
}

#[test]
fn explain_suggests_the_lint_a_typo_meant() {
    bin()
        .args(["explain", "duplicate_registraton"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "a lint with a similar name exists: `duplicate_registration`",
        ));
}

#[test]
fn a_lone_word_that_is_no_path_is_an_unknown_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let run = |word: &str| {
        let out = Command::cargo_bin("backend-lint")
            .unwrap()
            .current_dir(dir.path())
            .arg(word)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stderr).unwrap())
    };
    let (code, stderr) = run("chek");
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("unrecognized subcommand `chek`"),
        "{stderr}"
    );
    assert!(stderr.contains("similar name exists: `check`"), "{stderr}");
    let (code, stderr) = run("frobnicate");
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("unrecognized subcommand `frobnicate`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("the subcommands are: check, lints, explain, config, init"),
        "{stderr}"
    );
    // A folder of that name is checked, as before.
    write(dir.path(), "chek/lib.rs", BUGGY);
    let (code, stderr) = run("chek");
    assert_eq!(code, Some(1), "{stderr}");
}

/// `check | head -1`: the reader stops reading; the run ends quietly, with
/// the exit code of its findings.
#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    let dir = tempfile::tempdir().unwrap();
    // Far more report than a pipe buffers (64 KiB), so the writer meets the closed pipe.
    let calls = "    register_backend(\"cuda\", make);\n".repeat(2_000);
    write(
        dir.path(),
        "src/lib.rs",
        format!("pub fn init() {{\n{calls}}}\n"),
    );
    let out = std::process::Command::new("bash")
        .current_dir(dir.path())
        .arg("-c")
        .arg(r#""$0" check src --color never | head -1; echo "status ${PIPESTATUS[0]}" >&2"#)
        .arg(env!("CARGO_BIN_EXE_backend-lint"))
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 1);
    assert_eq!(stderr, "status 1\n");
}

/// The progress bar (drawn on a terminal after a second) counts files done
/// of the total: `script` gives the run a real terminal.
#[test]
fn the_progress_bar_shows_files_done_of_the_total() {
    let dir = tempfile::tempdir().unwrap();
    // Enough source for a debug build to take more than a second.
    let body: String = (0..150)
        .map(|i| format!("pub fn f{i}(x: u32) -> u32 {{ let y = x * {i}; if y > 3 {{ y }} else {{ x + y }} }}\n"))
        .collect();
    for i in 0..300 {
        write(dir.path(), &format!("src/m{i}.rs"), &body);
    }
    let command = format!(
        "{} check src --no-prefilter --color never",
        env!("CARGO_BIN_EXE_backend-lint")
    );
    let out = std::process::Command::new("script")
        .current_dir(dir.path())
        .args(["-qec", &command, "/dev/null"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).replace('\r', "\n");
    let counts: Vec<(usize, usize)> = text
        .split("checking ")
        .skip(1)
        .filter_map(|t| {
            let (done, rest) = t.split_once('/')?;
            Some((done.parse().ok()?, rest.split(' ').next()?.parse().ok()?))
        })
        .collect();
    assert!(!counts.is_empty(), "no progress drawn: {text}");
    assert!(
        counts
            .iter()
            .all(|&(done, total)| total == 300 && done <= total),
        "{counts:?}"
    );
    assert!(counts.iter().any(|&(done, _)| done < 300), "{counts:?}");
}

/// What comes after the files are checked is shown too: a report of 8,000
/// findings takes a debug build more than a second to write (it was
/// written with nothing on the terminal).
#[test]
fn a_long_report_is_shown_being_written() {
    let dir = tempfile::tempdir().unwrap();
    let calls = "    register_backend(\"cuda\", make);\n".repeat(8_001);
    write(
        dir.path(),
        "src/lib.rs",
        format!("pub fn init() {{\n{calls}}}\n"),
    );
    let command = format!(
        "{} check src --color never > report.txt",
        env!("CARGO_BIN_EXE_backend-lint")
    );
    let out = std::process::Command::new("script")
        .current_dir(dir.path())
        .args(["-qec", &command, "/dev/null"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("writing the report"), "{text}");
    let report = std::fs::read_to_string(dir.path().join("report.txt")).unwrap();
    assert!(report.ends_with("8000 errors in 1 file (1 file checked)\n"));
}

#[test]
fn color_follows_the_flag_then_the_environment() {
    let human = |flag: Option<&str>, env: &[(&str, &str)]| {
        let mut cmd = bin();
        cmd.args(["check", "tests/data/sample"])
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .env_remove("CARGO_TERM_COLOR")
            .env_remove("TERM");
        if let Some(f) = flag {
            cmd.args(["--color", f]);
        }
        for (k, v) in env {
            cmd.env(k, v);
        }
        String::from_utf8(cmd.output().unwrap().stdout)
            .unwrap()
            .contains('\u{1b}')
    };
    // Not a terminal: no color unless asked for.
    assert!(!human(None, &[]));
    assert!(human(None, &[("CLICOLOR_FORCE", "1")]));
    assert!(human(None, &[("CARGO_TERM_COLOR", "always")]));
    assert!(!human(
        None,
        &[("CARGO_TERM_COLOR", "never"), ("CLICOLOR_FORCE", "1")]
    ));
    assert!(!human(None, &[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")]));
    assert!(human(
        Some("always"),
        &[("TERM", "dumb"), ("NO_COLOR", "1")]
    ));
    assert!(!human(Some("never"), &[("CLICOLOR_FORCE", "1")]));
}

/// Chains that syn parses by recursion without a bracket: each aborted the
/// whole process (stack overflow) at these sizes before they were bounded.
fn long_chains(n: usize) -> Vec<(&'static str, String)> {
    vec![
        (
            "else_if",
            format!(
                "fn f(x: u32) -> u32 {{ if x == 0 {{ 0 }} {} else {{ 1 }} }}\n",
                "else if x == 1 { 1 } ".repeat(n)
            ),
        ),
        (
            "assign",
            format!("fn f() {{ let mut a = 0; {}0; }}\n", "a = ".repeat(n)),
        ),
        (
            "deref",
            format!("fn f(x: u8) -> u8 {{ {}x }}\n", "*".repeat(n)),
        ),
        (
            "closures",
            format!("fn f() {{ let c = {}0; }}\n", "|x| ".repeat(n)),
        ),
        (
            "fn_types",
            format!("type T = {}u8;\n", "fn() -> ".repeat(n)),
        ),
        (
            "raw_pointers",
            format!("type T = {}u8;\n", "*const ".repeat(n)),
        ),
        (
            "ref_patterns",
            format!("fn f() {{ let {}x = y; }}\n", "&".repeat(n)),
        ),
        (
            "method_chain",
            format!("fn f() {{ let v = a{}; }}\n", ".b()".repeat(n)),
        ),
        (
            "macro_method_chain",
            format!("fn f() {{ let v = m!(){}; }}\n", ".c".repeat(n)),
        ),
    ]
}

#[test]
fn long_chains_are_refused_per_file_never_abort_the_run() {
    let dir = tempfile::tempdir().unwrap();
    // The sizes that crashed the run before.
    let sizes = [
        ("else_if", 450_000),
        ("assign", 180_000),
        ("deref", 280_000),
        ("closures", 90_000),
        ("fn_types", 73_000),
        ("raw_pointers", 107_000),
        ("ref_patterns", 400_000),
        ("method_chain", 370_000),
        ("macro_method_chain", 370_000),
    ];
    for (name, n) in sizes {
        let text = long_chains(n)
            .into_iter()
            .find(|(k, _)| *k == name)
            .unwrap()
            .1;
        write(dir.path(), &format!("{name}.rs"), text);
    }
    write(dir.path(), "z_buggy.rs", BUGGY);
    let out = bin()
        .args(["check", "--format", "json"])
        .arg(dir.path())
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).expect("no abort: JSON was printed");
    assert_eq!(out.status.code(), Some(2));
    let errors = json["errors"].as_array().unwrap();
    assert_eq!(errors.len(), sizes.len(), "{errors:?}");
    for e in errors {
        let message = e["message"].as_str().unwrap();
        assert!(
            message.contains("in one expression, more than the")
                && message.ends_with("it was not analysed"),
            "{message}"
        );
    }
    // The other file is still analysed.
    assert_eq!(json["diagnostics"].as_array().unwrap().len(), 1);
}

#[test]
fn chains_within_the_bound_are_analysed() {
    let dir = tempfile::tempdir().unwrap();
    let n = backend_lint::syntax::limits::MAX_CHAIN - 10;
    for (name, text) in long_chains(n) {
        write(dir.path(), &format!("{name}.rs"), text);
    }
    let out = bin()
        .args(["check", "--format", "json"])
        .arg(dir.path())
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).expect("no abort: JSON was printed");
    assert_eq!(json["errors"].as_array().unwrap().len(), 0, "{json}");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn quiet_prints_findings_only_and_statistics_counts_them() {
    let out = bin()
        .args(["check", "tests/data/sample", "--quiet", "--color", "never"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("registered twice"), "{text}");
    assert!(!text.contains("2 errors in"), "no summary line: {text}");
    assert!(out.stderr.is_empty());

    let out = bin()
        .args([
            "check",
            "tests/data/sample",
            "--format",
            "short",
            "--statistics",
        ])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "1  error    duplicate_registration\n1  error    uncanonicalized_platform_comparison\n"
    );
}

#[test]
fn edition_2015_code_rustc_accepts_is_analysed() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "Cargo.toml",
        "[package]\nname = \"old\"\nversion = \"0.1.0\"\n",
    );
    write(
        dir.path(),
        "src/lib.rs",
        "pub trait Backend {}\n\
         pub fn try(r: &mut Registry, b: Box<Backend + Send>) -> Result<(), ()> {\n\
         \x20   let async = b;\n\
         \x20   try!(r.register_backend(\"cuda\", async));\n\
         \x20   r.register_backend(\"cuda\", make())\n\
         }\n",
    );
    let out = bin()
        .args(["check", "--format", "json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["errors"].as_array().unwrap().len(), 0, "{json}");
    assert_eq!(json["diagnostics"][0]["lint"], "duplicate_registration");
    assert_eq!(json["diagnostics"][0]["span"]["line"], 5);
}

/// stderr closed (`2>&1 | true`) or full (`2>/dev/full`): what cannot be
/// said is lost, but the exit code is the documented one, never a panic's
/// 101: a usage error is 2, a run with deny findings 1.
#[test]
fn a_closed_or_full_stderr_keeps_the_exit_code() {
    let runs: [(&[&str], i32); 4] = [
        (&["-A", "warning"], 2),
        (&["check", "no/such/path"], 2),
        (
            &[
                "check",
                "tests/data/sample",
                "--format",
                "short",
                "--statistics",
            ],
            1,
        ),
        (&["--bogus-flag"], 2),
    ];
    for (args, code) in runs {
        let full = std::fs::File::create("/dev/full").expect("/dev/full exists on Linux");
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        for stderr in [std::process::Stdio::from(full), writer.into()] {
            let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("backend-lint"))
                .current_dir(root())
                .args(args)
                .stdout(std::process::Stdio::null())
                .stderr(stderr)
                .status()
                .unwrap();
            assert_eq!(out.code(), Some(code), "{args:?}");
        }
    }
}

/// Outside any cargo package, plain `check` walks the current folder: an
/// empty one is nothing to check (2), said of the folder, not of packages.
#[test]
fn an_empty_folder_outside_packages_says_so() {
    let dir = tempfile::tempdir().unwrap();
    for args in [&[][..], &["check"]] {
        let out = bin().current_dir(dir.path()).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(
                "error: no Rust files to check under the current folder, which is in no cargo package"
            ),
            "{stderr}"
        );
        assert!(!stderr.contains("selected packages"), "{stderr}");
    }
}
