//! The consumer crates of `tests/consumers/` (issue 29): small programs that
//! call real published crates whose second registration or initialization
//! fails at run time. Each is checked as a user checks it: `backend-lint
//! check --format json` in the crate's folder (a copy out of this checkout, so
//! no configuration applies: the crate's own `Cargo.toml`, `Cargo.lock` and
//! the dependencies' sources cargo unpacked). The report is scored against the
//! markers: `// BUG <id>: ..` on a line a correct linter reports, `// TRAP
//! <id>: ..` on a line it must not; a finding on an unmarked line is a false
//! positive. The table is compared with `tests/consumers/expected.txt`
//! (`UPDATE_EXPECT=1 cargo test --test consumers` rewrites it: read the diff).
//!
//! The dependencies' sources must be present (`.ci/run` fetches them with
//! `cargo fetch --locked`): a crate whose sources are missing fails the test
//! with the command to run, never skips.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use common::{bin, copy_dir, root, rs_files};

fn consumers_dir() -> PathBuf {
    root().join("tests/consumers")
}

/// The consumer crates: the folders of `tests/consumers/` with a `Cargo.toml`.
fn crates() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(consumers_dir())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .collect();
    out.sort();
    out
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Bug,
    Trap,
}

#[derive(Debug, Clone)]
struct Marker {
    kind: Kind,
    id: String,
    file: String,
    line: usize,
}

/// The `// BUG <id>:` and `// TRAP <id>:` markers of a crate's `.rs` files.
fn markers(krate: &Path) -> Vec<Marker> {
    let mut out = Vec::new();
    let mut files = rs_files(&krate.join("src"));
    files.extend(rs_files(&krate.join("tests")));
    for file in files {
        let rel = file
            .strip_prefix(krate)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            for (tag, kind) in [("// BUG ", Kind::Bug), ("// TRAP ", Kind::Trap)] {
                let Some(at) = line.find(tag) else { continue };
                let rest = &line[at + tag.len()..];
                let id = rest.split(':').next().unwrap().trim().to_string();
                assert!(
                    rest.contains(':') && !id.is_empty() && !id.contains(' '),
                    "{rel}:{}: a marker is `{tag}<id>: <why>`",
                    n + 1
                );
                assert!(
                    line[..at].trim().len() > 1,
                    "{rel}:{}: a marker ends the line it marks (not a comment line of its own)",
                    n + 1
                );
                out.push(Marker {
                    kind: kind.clone(),
                    id,
                    file: rel.clone(),
                    line: n + 1,
                });
            }
        }
    }
    out.sort_by(|a, b| (&a.kind, &a.id).cmp(&(&b.kind, &b.id)));
    out
}

/// Fail, naming the command to run, when a package this machine's platform
/// needs is not unpacked: `cargo metadata --offline` resolves the crate as
/// backend-lint does (`--filter-platform host-tuple`) and fails on a missing
/// source.
fn assert_sources_present(krate: &Path) {
    let manifest = krate.join("Cargo.toml");
    let out =
        std::process::Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .args(["metadata", "--offline", "--locked", "--format-version", "1"])
            .args(["--filter-platform", "host-tuple", "--manifest-path"])
            .arg(&manifest)
            .output()
            .unwrap();
    assert!(
        out.status.success(),
        "the dependencies of {} cannot be read: run `cargo fetch --locked --target host-tuple \
         --manifest-path {}` (.ci/run does it for every consumer crate)\n{}",
        krate.display(),
        manifest.strip_prefix(root()).unwrap_or(&manifest).display(),
        String::from_utf8_lossy(&out.stderr),
    );
}

struct Finding {
    lint: String,
    file: String,
    line: usize,
    end_line: usize,
    message: String,
    /// Where a helper the finding is reached through starts, as its label
    /// names it ("it registers .. on its parameter `linker` at
    /// src/host.rs:38"): the registration inside it is the finding's too,
    /// as the shared marker scorer counts it.
    helpers: Vec<(String, usize)>,
}

/// Run backend-lint in a copy of the crate; the findings and a summary line.
fn check(krate: &Path) -> (Vec<Finding>, String) {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join(krate.file_name().unwrap());
    copy_dir(krate, &copy);
    // `CONSUMERS_BIN=<path>` scores another build (a release, another branch's).
    let mut cmd = match std::env::var_os("CONSUMERS_BIN") {
        Some(path) => {
            let mut cmd = assert_cmd::Command::new(path);
            cmd.current_dir(&copy).env("NO_COLOR", "1");
            cmd
        }
        None => bin(&copy),
    };
    let out = cmd
        .args(["check", "--format", "json", "--cache-dir"])
        .arg(dir.path().join("cache"))
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let json: serde_json::Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{}: not JSON ({e}):\n{stdout}\n{stderr}", krate.display()));
    let prefix = format!("{}/", copy.display());
    let mut findings = Vec::new();
    for d in json["diagnostics"].as_array().unwrap() {
        let span = &d["span"];
        let file = span["file"].as_str().unwrap();
        findings.push(Finding {
            lint: d["lint"].as_str().unwrap().to_string(),
            file: file.strip_prefix(&prefix).unwrap_or(file).to_string(),
            line: span["line"].as_u64().unwrap() as usize,
            end_line: span["end_line"].as_u64().unwrap() as usize,
            message: d["message"].as_str().unwrap().to_string(),
            helpers: (d["label"].as_str().into_iter())
                .filter(|m| m.contains("registered again here by `"))
                .filter_map(|m| {
                    let (_, at) = m.rsplit_once(" at ")?;
                    let (file, line) = at.trim_end_matches(')').rsplit_once(':')?;
                    Some((file.to_string(), line.parse().ok()?))
                })
                .collect(),
        });
    }
    let count = |key: &str| json[key].as_array().map_or(0, Vec::len);
    // What cargo or backend-lint said about the dependencies (a missing
    // source, a package skipped), without the temporary folder's name.
    let mut notes: BTreeSet<String> = BTreeSet::new();
    for line in stderr.lines() {
        if line.contains("cargo fetch") || line.contains("skipped") {
            notes.insert(line.replace(&copy.display().to_string(), "[CRATE]"));
        }
    }
    let mut summary = format!(
        "exit {}, {} findings, {} errors, {} skipped",
        out.status.code().unwrap_or(-1),
        findings.len(),
        count("errors"),
        count("skipped"),
    );
    for note in notes {
        summary.push_str(&format!("\n  note: {note}"));
    }
    (findings, summary)
}

/// One crate's table: each marker found or missed, quiet or hit, then the
/// findings on unmarked lines (false positives).
fn score(krate: &Path, markers: &[Marker], findings: &[Finding], summary: &str) -> String {
    let name = krate.file_name().unwrap().to_string_lossy();
    let mut out = format!("## {name} ({summary})\n");
    // A finding answers a marker when the marked line is within its span.
    let answers = |f: &Finding, m: &Marker| {
        (f.file == m.file && f.line <= m.line && m.line <= f.end_line)
            || (f.helpers.iter())
                .any(|(file, at)| *file == m.file && (*at..=at + 5).contains(&m.line))
    };
    let hits =
        |m: &Marker| -> Vec<&Finding> { findings.iter().filter(|f| answers(f, m)).collect() };
    for m in markers {
        let hit = hits(m);
        let verdict = match (&m.kind, hit.is_empty()) {
            (Kind::Bug, false) => "found",
            (Kind::Bug, true) => "MISSED",
            (Kind::Trap, true) => "quiet",
            (Kind::Trap, false) => "HIT (false positive)",
        };
        let kind = if m.kind == Kind::Bug { "BUG " } else { "TRAP" };
        out.push_str(&format!(
            "{kind} {:<16} {:<24} {verdict}",
            m.id,
            format!("{}:{}", m.file, m.line)
        ));
        for f in hit {
            out.push_str(&format!(" [{}] {}", f.lint, f.message));
        }
        out.push('\n');
    }
    for f in findings {
        let marked = markers.iter().any(|m| answers(f, m));
        if !marked {
            out.push_str(&format!(
                "UNMARKED {}:{} [{}] {} (false positive)\n",
                f.file, f.line, f.lint, f.message
            ));
        }
    }
    out
}

#[test]
fn consumer_crates_are_scored_against_their_markers() {
    let crates = crates();
    assert!(
        crates.len() >= 12,
        "issue 29 asks for at least 12 consumer crates, {} found",
        crates.len()
    );
    // Each crate is checked with its dependencies' sources, or the test fails.
    for krate in &crates {
        assert_sources_present(krate);
    }
    let mut table = String::from(
        "# backend-lint on tests/consumers/*, no configuration (see README.md there).\n\
         # BUG: found / MISSED; TRAP: quiet / HIT; UNMARKED: a finding on no marked line.\n",
    );
    let (mut bugs, mut found, mut traps, mut hit, mut unmarked) = (0, 0, 0, 0, 0);
    let mut ids = BTreeSet::new();
    for krate in &crates {
        let markers = markers(krate);
        assert!(
            markers.iter().any(|m| m.kind == Kind::Bug)
                && markers.iter().any(|m| m.kind == Kind::Trap),
            "{}: a consumer crate has bugs and traps beside them",
            krate.display()
        );
        for m in &markers {
            assert!(ids.insert(m.id.clone()), "marker id {} used twice", m.id);
        }
        let (findings, summary) = check(krate);
        let part = score(krate, &markers, &findings, &summary);
        bugs += markers.iter().filter(|m| m.kind == Kind::Bug).count();
        traps += markers.iter().filter(|m| m.kind == Kind::Trap).count();
        found += part
            .lines()
            .filter(|l| l.starts_with("BUG") && l.contains(" found"))
            .count();
        hit += part
            .lines()
            .filter(|l| l.starts_with("TRAP") && l.contains(" HIT"))
            .count();
        unmarked += part.lines().filter(|l| l.starts_with("UNMARKED")).count();
        table.push('\n');
        table.push_str(&part);
    }
    table.push_str(&format!(
        "\n# total: {} crates; bugs found {found}/{bugs}; traps hit {hit}/{traps}; unmarked findings {unmarked}\n",
        crates.len()
    ));

    let path = consumers_dir().join("expected.txt");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, &table).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "missing {}: run UPDATE_EXPECT=1 cargo test --test consumers",
            path.display()
        )
    });
    assert_eq!(
        expected,
        table,
        "{} differs; run UPDATE_EXPECT=1 cargo test --test consumers and review",
        path.display()
    );
}

#[test]
fn a_missing_source_fails_with_the_command_to_run() {
    let dir = tempfile::tempdir().unwrap();
    let krate = dir.path().join("c");
    common::write(
        &krate,
        "Cargo.toml",
        "[package]\nname = \"c\"\nversion = \"0.1.0\"\n\n[dependencies]\n\
         no-such-crate-xyz = \"9.9.9\"\n\n[workspace]\n",
    );
    common::write(&krate, "src/lib.rs", "");
    common::write(
        &krate,
        "Cargo.lock",
        "version = 4\n\n[[package]]\nname = \"c\"\nversion = \"0.1.0\"\ndependencies = [\"no-such-crate-xyz\"]\n\n\
         [[package]]\nname = \"no-such-crate-xyz\"\nversion = \"9.9.9\"\n\
         source = \"registry+https://github.com/rust-lang/crates.io-index\"\n\
         checksum = \"0000000000000000000000000000000000000000000000000000000000000000\"\n",
    );
    let panic = std::panic::catch_unwind(|| assert_sources_present(&krate));
    let message = panic.unwrap_err();
    let message = message.downcast_ref::<String>().unwrap();
    assert!(message.contains("cargo fetch --locked"), "{message}");
    assert!(message.contains("no-such-crate-xyz"), "{message}");
}

/// The scoring itself, on a crate of the vocabulary's shape that backend-lint
/// finds today: a marked duplicate is `found`, a trap in the other arm of an
/// `if` is `quiet`, and a finding on no marker is listed as a false positive.
#[test]
fn the_scoring_sees_found_quiet_and_unmarked_findings() {
    let dir = tempfile::tempdir().unwrap();
    let krate = dir.path().join("control");
    common::write(
        &krate,
        "Cargo.toml",
        "[package]\nname = \"control\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    );
    common::write(
        &krate,
        "Cargo.lock",
        "version = 4\n\n[[package]]\nname = \"control\"\nversion = \"0.1.0\"\n",
    );
    common::write(
        &krate,
        "src/lib.rs",
        r#"pub struct Registry;
impl Registry {
    pub fn register_backend_factory(&mut self, _name: &str, _f: fn()) {}
}
fn make() {}
pub fn init(r: &mut Registry, fast: bool) {
    r.register_backend_factory("cuda", make);
    r.register_backend_factory("cuda", make); // BUG c-1: the second `cuda`
    if fast {
        r.register_backend_factory("rocm", make);
    } else {
        r.register_backend_factory("rocm", make); // TRAP c-t1: the other arm
    }
    r.register_backend_factory("tpu", make);
    r.register_backend_factory("tpu", make);
}
"#,
    );
    let markers = markers(&krate);
    let (findings, summary) = check(&krate);
    let table = score(&krate, &markers, &findings, &summary);
    assert!(table.contains("BUG  c-1"), "{table}");
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("BUG  c-1") && l.contains(" found")),
        "{table}"
    );
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("TRAP c-t1") && l.contains(" quiet")),
        "{table}"
    );
    assert!(
        table.contains("UNMARKED src/lib.rs:15 [duplicate_registration]"),
        "{table}"
    );
}
