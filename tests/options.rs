//! What ruff and clippy users look for (issue 27): `--exit-zero`,
//! `--select`, `[per-file-ignores]`, `init`, and a documentation URL in
//! the JSON formats.

use std::path::Path;

use serde_json::Value;

mod common;
use common::{LIB, bin, package, root, run_cmd as run, write};

/// `check src --format short` with more arguments.
fn short(dir: &Path, args: &[&str]) -> (String, String, i32) {
    run(bin(dir)
        .args(["check", "src", "--format", "short"])
        .args(args))
}

/// `severity[lint]` of each line of a short report.
fn lints_of(out: &str) -> Vec<String> {
    out.lines()
        .map(|l| l.split(": ").nth(1).unwrap_or("").to_string())
        .collect()
}

// ---------------------------------------------------------------------------
// A documentation URL in `json` and `rustc`

/// The URL SARIF gives each rule as `helpUri`, by rule id.
fn sarif_help_uris() -> Vec<(String, String)> {
    let (sarif, _, _) = run(bin(&root()).args(["check", "tests/data/sample", "--format", "sarif"]));
    let sarif: Value = serde_json::from_str(&sarif).unwrap();
    sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["id"].as_str().unwrap().to_string(),
                r["helpUri"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn json_diagnostics_carry_the_documentation_url_sarif_gives_their_rule() {
    let uris = sarif_help_uris();
    let (out, _, code) = run(bin(&root()).args(["check", "tests/data/sample", "--format", "json"]));
    assert_eq!(code, 1);
    let json: Value = serde_json::from_str(&out).unwrap();
    let diagnostics = json["diagnostics"].as_array().unwrap();
    assert!(!diagnostics.is_empty());
    for d in diagnostics {
        let lint = d["lint"].as_str().unwrap();
        let (_, uri) = uris.iter().find(|(id, _)| id == lint).unwrap();
        assert_eq!(d["url"].as_str(), Some(uri.as_str()), "{d}");
        assert!(uri.ends_with(&format!("/lints/{lint}/README.md")), "{uri}");
    }
}

#[test]
fn rustc_diagnostics_end_with_a_help_giving_the_documentation_url_as_clippy_does() {
    let uris = sarif_help_uris();
    let (out, _, code) =
        run(bin(&root()).args(["check", "tests/data/sample", "--message-format", "json"]));
    assert_eq!(code, 1);
    for line in out.lines() {
        // Still what cargo and rust-analyzer read.
        let d: cargo_metadata::diagnostic::Diagnostic = serde_json::from_str(line).unwrap();
        let code = d.code.as_ref().unwrap();
        let lint = code.code.strip_prefix("backend_lint::").unwrap();
        assert_eq!(code.explanation, None, "rustc's `--explain` text: none");
        let (_, uri) = uris.iter().find(|(id, _)| id == lint).unwrap();
        let last = d.children.last().unwrap();
        assert_eq!(
            last.level,
            cargo_metadata::diagnostic::DiagnosticLevel::Help
        );
        assert_eq!(last.message, format!("for further information visit {uri}"));
        assert!(last.spans.is_empty());
        let rendered = d.rendered.unwrap();
        assert!(
            rendered.ends_with(&format!("  = help: for further information visit {uri}\n")),
            "{rendered}"
        );
    }
}

// ---------------------------------------------------------------------------
// `--exit-zero`

#[test]
fn exit_zero_exits_0_with_deny_findings_and_still_reports_them() {
    let dir = package(None);
    let (out, _, code) = short(dir.path(), &[]);
    assert_eq!(code, 1, "{out}");
    let (with, _, code) = short(dir.path(), &["--exit-zero"]);
    assert_eq!(code, 0, "{with}");
    assert_eq!(with, out, "the same report");
    assert!(with.contains("error[duplicate_registration]"), "{with}");
    // Without `check` too.
    let (_, _, code) = run(bin(dir.path()).args(["src", "--exit-zero", "-D", "warnings"]));
    assert_eq!(code, 0);
}

#[test]
fn exit_zero_keeps_2_when_the_run_could_not_do_its_job() {
    let dir = package(None);
    write(dir.path(), "src/broken.rs", "fn f( {\n");
    write(dir.path(), "src/lib.rs", format!("mod broken;\n{LIB}"));
    let (out, err, code) = short(dir.path(), &["--exit-zero"]);
    assert_eq!(code, 2, "a file that does not parse: {out}{err}");
    assert!(out.contains("error[duplicate_registration]"), "{out}");
    // A broken configuration or a usage error too.
    write(
        dir.path(),
        "backend-lint.toml",
        "[lints]\nnope = \"deny\"\n",
    );
    let (_, _, code) = short(dir.path(), &["--exit-zero"]);
    assert_eq!(code, 2);
    let (_, _, code) = short(dir.path(), &["--exit-zero", "-D", "nope"]);
    assert_eq!(code, 2);
}

// ---------------------------------------------------------------------------
// `--select`

#[test]
fn select_runs_only_the_lints_named() {
    let dir = package(None);
    let (out, _, code) = short(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(
        lints_of(&out),
        [
            "error[duplicate_registration]",
            "error[uncanonicalized_platform_comparison]",
            "warning[unused_suppression]",
        ]
    );
    let (out, _, code) = short(dir.path(), &["--select", "duplicate_registration"]);
    assert_eq!(code, 1);
    assert_eq!(lints_of(&out), ["error[duplicate_registration]"]);
    // Comma-separated, repeatable, with the tool prefix too.
    let (out, _, _) = short(
        dir.path(),
        &[
            "--select",
            "unused_suppression,backend_lint::duplicate_registration",
            "--select",
            "lowering_backend_mismatch",
        ],
    );
    assert_eq!(
        lints_of(&out),
        [
            "error[duplicate_registration]",
            "warning[unused_suppression]"
        ]
    );
    // Only a warning found: exit 0.
    let (out, _, code) = short(
        dir.path(),
        &["--select", "unused_suppression,lowering_backend_mismatch"],
    );
    assert_eq!(code, 0, "{out}");
    assert_eq!(lints_of(&out), ["warning[unused_suppression]"]);
    // A comment naming a lint not selected says nothing: that lint did not run.
    let (out, _, code) = short(dir.path(), &["--select", "unused_suppression"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.is_empty(), "{out}");
}

#[test]
fn select_enables_a_lint_the_configuration_allows_and_levels_still_apply() {
    let dir = package(Some(
        "[lints]\nduplicate_registration = \"allow\"\nuncanonicalized_platform_comparison = \"warn\"\n",
    ));
    // Selected, a lint the configuration allows runs at its default level ...
    let (out, _, code) = short(
        dir.path(),
        &[
            "--select",
            "duplicate_registration,uncanonicalized_platform_comparison",
        ],
    );
    assert_eq!(code, 1);
    assert_eq!(
        lints_of(&out),
        [
            "error[duplicate_registration]",
            "warning[uncanonicalized_platform_comparison]"
        ]
    );
    // ... the configuration's other levels and -A/-W/-D apply to the selected
    // lints, in order ...
    let (out, _, code) = short(
        dir.path(),
        &[
            "--select",
            "duplicate_registration,uncanonicalized_platform_comparison",
            "-W",
            "duplicate_registration",
            "-D",
            "warnings",
            "-A",
            "uncanonicalized_platform_comparison",
        ],
    );
    assert_eq!(code, 1);
    assert_eq!(lints_of(&out), ["error[duplicate_registration]"]);
    // ... and cannot enable a lint not selected.
    let (out, _, code) = short(
        dir.path(),
        &[
            "--select",
            "uncanonicalized_platform_comparison",
            "-D",
            "unused_suppression",
        ],
    );
    assert_eq!(code, 0);
    assert_eq!(
        lints_of(&out),
        ["warning[uncanonicalized_platform_comparison]"]
    );
    // `config` shows the levels a selection gives.
    let (text, err, code) =
        run(bin(dir.path()).args(["config", "--select", "duplicate_registration"]));
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("duplicate_registration = \"deny\"\n"),
        "{text}"
    );
    assert!(text.contains("unused_suppression = \"allow\"\n"), "{text}");
}

#[test]
fn select_of_an_unknown_lint_is_a_usage_error_with_a_suggestion() {
    let dir = package(None);
    let (out, err, code) = short(dir.path(), &["--select", "duplicate_registraton"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(
        err,
        "error: --select: no lint named `duplicate_registraton`: did you mean `duplicate_registration`?\n"
    );
    let (_, err, code) = short(dir.path(), &["--select", "duplicate_registration,"]);
    assert_eq!(code, 2);
    assert!(err.contains("--select: a lint name is empty"), "{err}");
    let (_, err, code) = short(dir.path(), &["--select", "warnings"]);
    assert_eq!(code, 2);
    assert!(err.contains("--select: no lint named `warnings`"), "{err}");
}

// ---------------------------------------------------------------------------
// `[per-file-ignores]`

#[test]
fn per_file_ignores_drop_the_lints_named_in_the_files_matched() {
    let dir = package(Some(
        "[per-file-ignores]\n\"src/lib.rs\" = [\"duplicate_registration\"]\n\"src/legacy/**\" = [\"uncanonicalized_platform_comparison\", \"unused_suppression\"]\n\"*_gen.rs\" = [\"uncanonicalized_platform_comparison\"]\n",
    ));
    write(dir.path(), "src/legacy/old.rs", LIB);
    write(dir.path(), "src/deep/api_gen.rs", LIB);
    write(
        dir.path(),
        "src/lib.rs",
        format!("mod deep {{ mod api_gen; }}\nmod legacy {{ mod old; }}\n{LIB}"),
    );
    let (out, err, code) = run(bin(dir.path()).args(["check", "--format", "short"]));
    assert_eq!(code, 1, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let of = |file: &str| -> Vec<String> {
        lines
            .iter()
            .filter(|l| l.starts_with(&format!("{file}:")))
            .map(|l| l.split(": ").nth(1).unwrap().to_string())
            .collect()
    };
    // A path relative to the configuration's folder.
    assert_eq!(
        of("src/lib.rs"),
        [
            "error[uncanonicalized_platform_comparison]",
            "warning[unused_suppression]"
        ],
        "{out}"
    );
    // A folder's glob.
    assert_eq!(
        of("src/legacy/old.rs"),
        ["error[duplicate_registration]"],
        "{out}"
    );
    // A pattern without `/` matches the file name anywhere, as in ruff.
    assert_eq!(
        of("src/deep/api_gen.rs"),
        [
            "error[duplicate_registration]",
            "warning[unused_suppression]"
        ],
        "{out}"
    );
}

#[test]
fn a_suppression_comment_for_a_lint_ignored_in_its_file_is_not_unused() {
    let dir = package(Some(
        "[per-file-ignores]\n\"src/*.rs\" = [\"lowering_backend_mismatch\"]\n",
    ));
    let (out, _, _) = short(dir.path(), &[]);
    assert_eq!(
        lints_of(&out),
        [
            "error[duplicate_registration]",
            "error[uncanonicalized_platform_comparison]"
        ],
        "the lint named by the comment did not run in that file: {out}"
    );
}

#[test]
fn per_file_ignores_apply_from_cargo_metadata_and_show_in_config() {
    let dir = package(None);
    let manifest = dir.path().join("Cargo.toml");
    let mut text = std::fs::read_to_string(&manifest).unwrap();
    text.push_str("\n[package.metadata.backend-lint.per-file-ignores]\n\"src/**\" = [\"duplicate_registration\"]\n");
    std::fs::write(&manifest, text).unwrap();
    let (out, _, _) = short(dir.path(), &[]);
    assert!(!out.contains("duplicate_registration"), "{out}");
    let (text, err, code) = run(bin(dir.path()).args(["config"]));
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("[per-file-ignores]\n\"src/**\" = [\"duplicate_registration\"]\n"),
        "{text}"
    );
}
