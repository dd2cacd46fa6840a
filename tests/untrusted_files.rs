//! A checkout is untrusted input: its cargo target paths and its links must
//! not make backend-lint open, let alone print, a file outside it. Each test
//! plants a secret outside the checkout (a registry token that does not
//! parse as Rust, so a parse error's excerpt would show it) and checks that
//! no format prints it, and that the file is listed as skipped, with why,
//! in every format. Real cargo metadata, real symlinks, real FIFOs.
#![cfg(unix)]

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

mod common;
use common::write;

/// What must never be printed. On the line of the parse error (the unclosed
/// brace), so an excerpt of the file would show it.
const SECRET: &str = "SECRET-TOKEN-5f0c1e";
const CREDENTIALS: &str = "[registry]\ntoken = \"SECRET-TOKEN-5f0c1e\" {\n";

const CLEAN: &str = "pub fn f() {}\n";
const BUGGY: &str = "pub fn pick(d: &Device) -> bool { d.platform() == \"gpu\" }\n";

/// Every format but JSON (printed on stdout) is written with `--output`.
const FORMATS: [&str; 6] = ["human", "short", "sarif", "github", "gitlab", "rustc"];

fn bin(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("backend-lint").unwrap();
    cmd.current_dir(dir)
        .env_remove("GITHUB_STEP_SUMMARY")
        .env("CARGO_NET_OFFLINE", "true");
    cmd
}

/// One run's output: the exit code, stderr, and each format's report.
struct Run {
    code: Option<i32>,
    stderr: String,
    json: Value,
    reports: Vec<(&'static str, String)>,
}

impl Run {
    fn report(&self, format: &str) -> &str {
        &self.reports.iter().find(|(f, _)| *f == format).unwrap().1
    }

    /// Nothing printed anywhere holds the secret.
    fn assert_secret_kept(&self) {
        assert!(!self.stderr.contains(SECRET), "stderr: {}", self.stderr);
        assert!(
            !self.json.to_string().contains(SECRET),
            "json: {}",
            self.json
        );
        for (format, text) in &self.reports {
            assert!(!text.contains(SECRET), "{format}: {text}");
        }
    }

    /// `file` is listed as skipped, with a reason holding `why`, in every format.
    /// No report and no line on stderr names `path`: where a link leads
    /// outside the checkout is the machine's, not the checkout's.
    fn assert_never_names(&self, path: &Path) {
        let path = path.display().to_string();
        assert!(!self.stderr.contains(&path), "stderr: {}", self.stderr);
        for (format, text) in &self.reports {
            assert!(!text.contains(&path), "{format}: {text}");
        }
    }

    fn assert_skipped(&self, file: &str, why: &str) {
        let listed = self.json["skipped"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["file"] == file && s["message"].as_str().unwrap().contains(why));
        assert!(
            listed,
            "json: `{file}` ({why}) not in {}",
            self.json["skipped"]
        );
        // miette wraps long messages, with a gutter.
        let human: Vec<&str> = self
            .report("human")
            .split_whitespace()
            .filter(|w| *w != "│")
            .collect();
        let human = human.join(" ");
        assert!(
            human.contains(&format!("skipped `{file}`: ")) && human.contains(why),
            "human: {human}"
        );
        let line = |format: &str, start: &str| {
            let found = self
                .report(format)
                .lines()
                .any(|l| l.contains(start) && l.contains(why));
            assert!(
                found,
                "{format}: `{start}` ({why}): {}",
                self.report(format)
            );
        };
        line("short", &format!("{file}: warning: skipped: "));
        line("github", &format!("::warning file={file},"));
        line("rustc", &format!("\"warning: skipped `{file}`: "));
        let sarif: Value = serde_json::from_str(self.report("sarif")).unwrap();
        let notified = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| {
                n["level"] == "warning"
                    && n["message"]["text"].as_str().unwrap().contains(why)
                    && n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                        .as_str()
                        .unwrap()
                        .ends_with(file.trim_start_matches("../"))
            });
        assert!(notified, "sarif: `{file}` ({why}): {sarif}");
        let gitlab: Value = serde_json::from_str(self.report("gitlab")).unwrap();
        let issue = gitlab.as_array().unwrap().iter().any(|i| {
            i["check_name"] == "backend_lint::skipped"
                && i["location"]["path"] == file
                && i["description"].as_str().unwrap().contains(why)
        });
        assert!(issue, "gitlab: `{file}` ({why}): {gitlab}");
    }

    fn skipped(&self) -> Vec<String> {
        let mut files: Vec<String> = self.json["skipped"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["file"].as_str().unwrap().to_string())
            .collect();
        files.sort();
        files
    }
}

/// `backend-lint check ARGS` in `dir`, with every format.
fn run(dir: &Path, args: &[&str]) -> Run {
    let reports = tempfile::tempdir().unwrap();
    let mut cmd = bin(dir);
    cmd.args(["check", "--format", "json"]).args(args);
    for format in FORMATS {
        cmd.arg("--output").arg(format!(
            "{format}={}",
            reports.path().join(format).display()
        ));
    }
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{stderr}", String::from_utf8_lossy(&out.stdout)));
    let reports = FORMATS
        .iter()
        .map(|f| (*f, std::fs::read_to_string(reports.path().join(f)).unwrap()))
        .collect();
    Run {
        code: out.status.code(),
        stderr,
        json,
        reports,
    }
}

/// A folder with a secret outside the checkout: `home/.cargo/credentials.toml`,
/// `away/secret.rs`, and the checkout itself, `ws/`.
fn machine() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    // Canonical, as the real paths in the messages are.
    let root = dir.path().canonicalize().unwrap();
    write(&root, "home/.cargo/credentials.toml", CREDENTIALS);
    write(&root, "away/secret.rs", CREDENTIALS);
    // Where a target path leads, no configuration is looked for: its
    // error would show its lines.
    write(&root, "away/backend-lint.toml", CREDENTIALS);
    write(&root, "home/.cargo/backend-lint.toml", CREDENTIALS);
    std::fs::create_dir_all(root.join("ws")).unwrap();
    (dir, root)
}

fn package(dir: &Path, name: &str, extra: &str) {
    write(
        dir,
        "Cargo.toml",
        format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n{extra}"),
    );
}

fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn hostile_cargo_target_paths_are_skipped_in_every_format() {
    let (_dir, root) = machine();
    let ws = root.join("ws");
    let secret = root.join("away/secret.rs").display().to_string();
    let credentials = root
        .join("home/.cargo/credentials.toml")
        .display()
        .to_string();
    // Up to `/` and down again, as `../../../../etc/passwd` does.
    let climbing = format!("../../../../../../../../..{secret}");
    package(
        &ws,
        "app",
        &format!(
            "build = \"{secret}\"\n\n[lib]\npath = \"{climbing}\"\n\n\
             [[bin]]\nname = \"creds\"\npath = \"{credentials}\"\n\n\
             [[example]]\nname = \"ex\"\npath = \"../home/.cargo/credentials.toml\"\n",
        ),
    );
    write(&ws, "src/main.rs", "fn main() {}\n");
    let run = run(&ws, &[]);
    run.assert_secret_kept();
    assert_eq!(
        run.code,
        Some(0),
        "skipped files fail nothing: {}",
        run.stderr
    );
    let why = format!("is outside the package `{}`", ws.display());
    // Each as the manifest spells it.
    let mut skipped = [
        climbing.as_str(),
        secret.as_str(),
        credentials.as_str(),
        "../home/.cargo/credentials.toml",
    ];
    for file in skipped {
        run.assert_skipped(file, &why);
    }
    skipped.sort();
    assert_eq!(run.skipped(), skipped);
    assert_eq!(run.json["errors"], Value::Array(Vec::new()));
    assert_eq!(run.json["summary"]["files_checked"], 1, "src/main.rs read");
}

#[test]
fn links_out_of_the_workspace_are_skipped_in_every_format() {
    let (_dir, root) = machine();
    let ws = root.join("ws");
    write(
        &ws,
        "Cargo.toml",
        "[workspace]\nmembers = [\"app\", \"linked\", \"srclink\"]\nresolver = \"2\"\n",
    );
    // `src/main.rs -> credentials`, and a walked file that links out.
    package(&ws.join("app"), "app", "");
    write(&ws, "app/src/lib.rs", CLEAN);
    symlink(
        root.join("home/.cargo/credentials.toml"),
        ws.join("app/src/main.rs"),
    )
    .unwrap();
    symlink(root.join("away/secret.rs"), ws.join("app/src/walked.rs")).unwrap();
    // A link inside the workspace is read: its finding is reported.
    write(&ws, "app/src/real.rs", BUGGY);
    symlink("real.rs", ws.join("app/src/alias.rs")).unwrap();
    // A member that is a link to a folder outside.
    package(&root.join("away/member"), "linked", "");
    write(&root, "away/member/src/lib.rs", CREDENTIALS);
    symlink(root.join("away/member"), ws.join("linked")).unwrap();
    // `src -> elsewhere`.
    package(&ws.join("srclink"), "srclink", "");
    write(&root, "away/src/lib.rs", CREDENTIALS);
    symlink(root.join("away/src"), ws.join("srclink/src")).unwrap();

    let run = run(&ws, &["--workspace"]);
    run.assert_secret_kept();
    assert_eq!(run.code, Some(1), "the finding in real.rs: {}", run.stderr);
    run.assert_never_names(&root.join("away"));
    run.assert_never_names(&root.join("home"));
    let why = format!("is outside the workspace `{}`", ws.display());
    for file in [
        "app/src/main.rs",
        "app/src/walked.rs",
        "linked",
        "linked/src/lib.rs",
        "srclink/src/lib.rs",
    ] {
        run.assert_skipped(file, &why);
    }
    assert_eq!(run.json["errors"], Value::Array(Vec::new()));
    let found: Vec<&str> = run.json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["span"]["file"].as_str().unwrap())
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].ends_with(".rs") && found[0].starts_with("app/src/"));
}

#[test]
fn links_out_of_the_folder_given_are_skipped() {
    let (_dir, root) = machine();
    let ws = root.join("ws");
    write(&ws, "lib.rs", CLEAN);
    symlink(root.join("away/secret.rs"), ws.join("leak.rs")).unwrap();
    symlink(
        root.join("home/.cargo/credentials.toml"),
        ws.join("creds.rs"),
    )
    .unwrap();
    // Not followed: the files of a linked folder are not the folder's.
    symlink(root.join("away"), ws.join("away")).unwrap();
    let run = run(&ws, &["."]);
    run.assert_secret_kept();
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let why = format!("is outside the folder `{}`", ws.display());
    run.assert_skipped("creds.rs", &why);
    run.assert_skipped("leak.rs", &why);
    assert_eq!(run.skipped(), ["creds.rs", "leak.rs"]);
}

#[test]
fn a_file_named_on_the_command_line_is_read_even_through_a_link() {
    let (_dir, root) = machine();
    let ws = root.join("ws");
    package(&ws, "app", "");
    write(&ws, "src/lib.rs", CLEAN);
    write(&root, "away/buggy.rs", BUGGY);
    symlink(root.join("away/buggy.rs"), ws.join("src/buggy.rs")).unwrap();
    symlink(root.join("away/secret.rs"), ws.join("src/leak.rs")).unwrap();
    // Named (pre-commit passes files): read, and its finding reported.
    for named in ["src/buggy.rs", "../away/buggy.rs"] {
        let run = run(&ws, &[named]);
        run.assert_secret_kept();
        assert_eq!(run.code, Some(1), "{named}: {}", run.stderr);
        assert_eq!(run.json["diagnostics"][0]["span"]["file"], named);
    }
}

#[test]
fn path_attributes_and_include_to_outside_files_are_not_read() {
    let (_dir, root) = machine();
    let ws = root.join("ws");
    package(&ws, "app", "");
    let secret = root.join("away/secret.rs");
    write(
        &ws,
        "src/lib.rs",
        format!(
            "#[path = \"{0}\"]\nmod leak;\n#[path = \"../../away/secret.rs\"]\nmod again;\n\
             include!(\"{0}\");\nconst C: &str = include_str!(\"../../away/secret.rs\");\n",
            secret.display()
        ),
    );
    for args in [&[][..], &["."], &["src/lib.rs"]] {
        let run = run(&ws, args);
        run.assert_secret_kept();
        assert_eq!(run.code, Some(0), "{args:?}: {}", run.stderr);
        assert_eq!(run.json["summary"]["files_checked"], 1, "{args:?}");
    }
}

#[test]
fn a_file_over_the_size_limit_is_refused_with_its_real_size() {
    let dir = tempfile::tempdir().unwrap();
    for (name, size, shown) in [
        (
            "a.rs",
            33 * 1024 * 1024,
            "file is 33.0 MiB (34603008 bytes)",
        ),
        (
            "b.rs",
            32 * 1024 * 1024 + 512 * 1024,
            "file is 32.5 MiB (34078720 bytes)",
        ),
    ] {
        // Sparse: no disk is written.
        let file = std::fs::File::create(dir.path().join(name)).unwrap();
        file.set_len(size).unwrap();
        let out = bin(dir.path())
            .args(["check", name, "--format", "short"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            text.trim_end(),
            format!("{name}: error: {shown}, over the 32 MiB limit; it was not analysed")
        );
    }
}

#[test]
fn a_fifo_named_on_the_command_line_says_what_it_is() {
    let dir = tempfile::tempdir().unwrap();
    mkfifo(&dir.path().join("pipe.rs"));
    let out = bin(dir.path()).args(["check", "pipe.rs"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: cannot check `pipe.rs`: it is a FIFO, not a file or a folder\n"
    );
}

#[test]
fn fifos_and_devices_among_the_files_are_skipped_with_a_reason() {
    let (_dir, root) = machine();
    let ws = root.join("ws");
    package(
        &ws,
        "app",
        "\n[[bin]]\nname = \"piped\"\npath = \"bin/piped.rs\"\n",
    );
    write(&ws, "src/lib.rs", "mod x;\nmod zero;\npub fn f() {}\n");
    mkfifo(&ws.join("src/x.rs"));
    mkfifo(&ws.join("bin/piped.rs"));
    symlink("/dev/zero", ws.join("src/zero.rs")).unwrap();
    // A link inside the package to a FIFO inside it.
    symlink("x.rs", ws.join("src/y.rs")).unwrap();
    for args in [&[][..], &["."]] {
        let run = run(&ws, args);
        assert_eq!(run.code, Some(0), "{args:?}: {}", run.stderr);
        let fifo = "not a regular file (a FIFO)";
        run.assert_skipped("bin/piped.rs", fifo);
        run.assert_skipped("src/x.rs", fifo);
        run.assert_skipped("src/y.rs", fifo);
        run.assert_skipped("src/zero.rs", "its real path is outside the");
        run.assert_never_names(Path::new("/dev/zero"));
        // Only src/lib.rs was read: skipped files are not "checked".
        let human = run.report("human");
        assert!(
            human.contains("no findings in 1 file; 4 files skipped"),
            "{human}"
        );
        assert_eq!(run.json["summary"]["files_checked"], 1);
    }
}

/// A configuration file or a manifest that is a link out of its folder is
/// never read into a message: its parse error would show the lines of the
/// file it leads to.
#[test]
fn configuration_and_manifests_linked_out_are_never_shown() {
    let check = |dir: &Path, args: &[&str]| {
        let out = bin(dir).arg("check").args(args).output().unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        );
        assert!(!stdout.contains(SECRET), "stdout: {stdout}");
        assert!(!stderr.contains(SECRET), "stderr: {stderr}");
        (out.status.code(), stderr)
    };
    let (_keep, root) = machine();
    let ws = root.join("ws");
    let credentials = root.join("home/.cargo/credentials.toml");
    package(&ws, "ws", "");
    write(&ws, "src/lib.rs", BUGGY);
    symlink(&credentials, ws.join("backend-lint.toml")).unwrap();
    for args in [&[][..], &["src"], &["src/lib.rs"]] {
        let (code, stderr) = check(&ws, args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("is a link to"), "{args:?}: {stderr}");
    }
    // `--config` names a file: the user's choice, read (its error shown).
    let out = bin(&ws)
        .args(["check", "--config", "backend-lint.toml", "src"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid configuration"));
    std::fs::remove_file(ws.join("backend-lint.toml")).unwrap();
    // The manifest itself a link: cargo's error loses its excerpt.
    std::fs::remove_file(ws.join("Cargo.toml")).unwrap();
    symlink(&credentials, ws.join("Cargo.toml")).unwrap();
    let (code, stderr) = check(&ws, &[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("cargo metadata"), "{stderr}");
}
