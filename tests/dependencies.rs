//! What the dependencies a workspace calls teach it (issue 29), with the
//! real cargo: a vendored framework (cargo's directory source) whose
//! registrations reject a second name, a path dependency out of the
//! checkout (never read), and a git dependency whose summary is cached.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{bin, copy_dir, run_cmd};

/// `file:line` of each `//~ duplicate_registration` marker of the files.
fn marked(ws: &Path, files: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(ws.join(file)).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.contains("//~ duplicate_registration") {
                out.push(format!("{file}:{}", n + 1));
            }
        }
    }
    out
}

/// `file:line` of each finding of a `--format short` report.
fn found(stdout: &str) -> Vec<String> {
    found_of(stdout, "duplicate_registration")
}

/// `file:line` of each finding of `lint` in a `--format short` report.
fn found_of(stdout: &str, lint: &str) -> Vec<String> {
    let mut out: Vec<String> = (stdout.lines())
        .filter(|l| l.contains(&format!("[{lint}]")))
        .map(|l| {
            let mut parts = l.splitn(3, ':');
            format!("{}:{}", parts.next().unwrap(), parts.next().unwrap())
        })
        .collect();
    out.dedup();
    out
}

/// The seed workspace copied out: `<tmp>/ws` is the checkout, `<tmp>/outside`
/// a path dependency out of it.
fn seed() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&common::root().join("tests/data/deps/seed"), dir.path());
    let ws = dir.path().join("ws");
    (dir, ws)
}

#[test]
fn a_rejection_in_a_vendored_dependency_is_found_where_the_workspace_calls_it() {
    let (dir, ws) = seed();
    let cache = dir.path().join("cache");
    let (stdout, stderr, code) = run_cmd(
        bin(&ws)
            .args(["check", "--format", "short", "--cache-dir"])
            .arg(&cache),
    );
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    assert_eq!(
        found(&stdout),
        marked(&ws, &["plugin/src/lib.rs"]),
        "{stdout}"
    );
    // The one reached only through what the framework's code teaches.
    assert!(
        stdout.contains("`cuda` is registered twice with `add_platform`"),
        "{stdout}"
    );
    // A path dependency out of the checkout is listed, never read.
    assert!(
        stderr.contains(
            "dependency `trace-hooks 0.1.0` skipped: a path dependency outside the checkout"
        ),
        "{stderr}"
    );
    assert!(
        !stdout.contains("install") && !stderr.contains("outside/src"),
        "{stdout}"
    );
    // A vendored source is the checkout's: cached under its files' sizes
    // and times, read again when one changes.
    let entries = std::fs::read_dir(cache.join("deps-v1")).unwrap().count();
    assert_eq!(entries, 2);
    let cached = run_cmd(
        bin(&ws)
            .args(["check", "--format", "short", "--cache-dir"])
            .arg(&cache),
    );
    assert_eq!(cached.0, stdout);
    let source = ws.join("vendor/accel-framework/src/registry.rs");
    let text = std::fs::read_to_string(&source).unwrap();
    let replacing = text.replace(
        "Entry::Occupied(_) => Err(RegistryError::AlreadyRegistered(name.to_string())),",
        "Entry::Occupied(mut e) => { e.insert(priority); Ok(()) }",
    );
    assert_ne!(replacing, text);
    std::fs::write(&source, replacing).unwrap();
    let (after, stderr, _) = run_cmd(
        bin(&ws)
            .args(["check", "--format", "short", "--cache-dir"])
            .arg(&cache),
    );
    assert!(!after.contains("add_platform"), "{after}\n{stderr}");
    assert!(after.contains("register_backend_factory"), "{after}");
}

#[test]
fn without_the_dependencies_only_the_names_of_the_vocabulary_are_found() {
    let (_dir, ws) = seed();
    let (stdout, _, _) = run_cmd(bin(&ws).args(["check", "--format", "short", "--no-deps"]));
    assert!(!stdout.contains("add_platform"), "{stdout}");
    assert!(stdout.contains("register_backend_factory"), "{stdout}");
}

#[test]
fn a_missing_source_gives_one_note_and_the_workspace_is_still_checked() {
    let (_dir, ws) = seed();
    std::fs::remove_dir_all(ws.join("vendor/accel-framework")).unwrap();
    let (stdout, stderr, code) = run_cmd(bin(&ws).args(["check", "--format", "short"]));
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(stderr.matches("run `cargo fetch`").count(), 1, "{stderr}");
    assert!(stdout.contains("register_backend_factory"), "{stdout}");
    assert!(!stdout.contains("add_platform"), "{stdout}");
}

#[test]
fn config_lists_what_each_dependency_taught_and_where() {
    let (_dir, ws) = seed();
    let (stdout, stderr, code) = run_cmd(bin(&ws).args(["config", "--no-cache"]));
    assert_eq!(code, 0, "{stderr}");
    let listed: Vec<&str> = (stdout.lines())
        .skip_while(|l| !l.starts_with("# Learned from the dependencies"))
        .collect();
    // `register_backend_factory` is in the built-in vocabulary: nothing
    // to learn of it.
    let expected = [
        "# Learned from the dependencies (their code is not checked):",
        "#   `accel_framework::pipeline::Pipeline::add_pass` \
         (accel-framework-0.3.1/src/pipeline.rs:30): it rejects a second key \
         (`self.passes.contains_key(&id)`)",
        "#   `accel_framework::pipeline::Pipeline::stage` \
         (accel-framework-0.3.1/src/pipeline.rs:21): it rejects a second key \
         (`self.stages.contains_key(name)`)",
        "#   `accel_framework::registry::Registry::add_platform` \
         (accel-framework-0.3.1/src/registry.rs:44): it rejects a second key \
         (`self.priorities.entry(name.to_string())`)",
    ];
    assert_eq!(listed, expected, "{stdout}");
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .current_dir(dir)
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The seed's plugin depending on the framework by git (a repository in a
/// temporary folder), fetched into a `CARGO_HOME` of its own.
fn git_workspace() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let seed = common::root().join("tests/data/deps/seed");
    // Each vendored package of the seed a repository of its own.
    let repo = |name: &str| {
        let repo = dir.path().join(name);
        copy_dir(&seed.join("ws/vendor").join(name), &repo);
        std::fs::remove_file(repo.join(".cargo-checksum.json")).unwrap();
        git(&repo, &["init", "-q"]);
        git(&repo, &["add", "."]);
        git(&repo, &["commit", "-q", "-m", name]);
        format!("file://{}", repo.display())
    };
    let ws = dir.path().join("ws");
    copy_dir(&seed.join("ws/plugin"), &ws.join("plugin"));
    copy_dir(&seed.join("ws/tables"), &ws.join("tables"));
    std::fs::write(
        ws.join("Cargo.toml"),
        "[workspace]\nmembers = [\"plugin\", \"tables\"]\nresolver = \"2\"\n",
    )
    .unwrap();
    let by_git = |member: &str, dep: &str, version: &str, url: &str| {
        let path = ws.join(member).join("Cargo.toml");
        let manifest = std::fs::read_to_string(&path).unwrap();
        let git = format!("{dep} = {{ git = \"{url}\" }}");
        let manifest = manifest
            .replace(&format!("{dep} = \"{version}\""), &git)
            .replace("../../outside", "../../framework-hooks");
        std::fs::write(path, manifest).unwrap();
    };
    // The framework's derive macro, a package of its repository: a proc
    // macro teaches nothing, and does not keep the framework uncached.
    let url = repo("accel-framework");
    let framework = dir.path().join("accel-framework");
    std::fs::create_dir_all(framework.join("macros/src")).unwrap();
    std::fs::write(
        framework.join("macros/Cargo.toml"),
        "[package]\nname = \"accel-macros\"\nversion = \"0.3.1\"\nedition = \"2021\"\n\n\
         [lib]\nproc-macro = true\n",
    )
    .unwrap();
    std::fs::write(framework.join("macros/src/lib.rs"), "// no macro yet\n").unwrap();
    let manifest = std::fs::read_to_string(framework.join("Cargo.toml")).unwrap();
    let manifest = format!("{manifest}\n[dependencies]\naccel-macros = {{ path = \"macros\" }}\n");
    std::fs::write(framework.join("Cargo.toml"), manifest).unwrap();
    git(&framework, &["add", "."]);
    git(&framework, &["commit", "-q", "-m", "macros"]);
    by_git("plugin", "accel-framework", "0.3", &url);
    by_git("tables", "device-table", "1", &repo("device-table"));
    copy_dir(&seed.join("outside"), &dir.path().join("framework-hooks"));
    let home = dir.path().join("cargo-home");
    let out = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .current_dir(&ws)
        .env("CARGO_HOME", &home)
        .args(["fetch", "-q"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (dir, ws, home)
}

/// The framework's `registry.rs` in `CARGO_HOME/git/checkouts/<repo>/<commit>/`.
fn checked_out(home: &Path) -> PathBuf {
    let repos = home.join("git/checkouts");
    let repo = (std::fs::read_dir(&repos).unwrap())
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("accel-framework")
        })
        .unwrap();
    let commit = std::fs::read_dir(repo)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    commit.join("src/registry.rs")
}

#[test]
fn a_second_run_reads_no_source_of_a_dependency_that_did_not_change() {
    let (dir, ws, home) = git_workspace();
    let cache = dir.path().join("cache");
    let run = |extra: &[&str]| {
        let (stdout, stderr, _) = run_cmd(
            bin(&ws)
                .env("CARGO_HOME", &home)
                .args(["check", "--format", "short", "--cache-dir"])
                .arg(&cache)
                .args(extra),
        );
        assert!(!stderr.contains("cargo fetch"), "{stderr}");
        stdout
    };
    let first = run(&[]);
    assert!(first.contains("with `add_platform`"), "{first}");
    // A builder that hands itself back and a key that is a type, as the
    // cached summary must say too.
    assert!(
        first.contains("`decode` is registered twice with `stage`"),
        "{first}"
    );
    assert!(
        first.contains("is registered twice with `add_pass`"),
        "{first}"
    );
    let entries: Vec<PathBuf> = (std::fs::read_dir(cache.join("deps-v1")).unwrap())
        .map(|e| e.unwrap().path())
        .collect();
    // One each, also for `device-table`, which teaches nothing: a second
    // run opens none of its files either.
    assert_eq!(entries.len(), 2, "{entries:?}");
    let key = |path: &Path| -> String {
        let entry: serde_json::Value =
            serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        entry["key"].as_str().unwrap_or_default().to_string()
    };
    let framework = (entries.iter())
        .find(|e| key(e).starts_with("git accel-framework 0.3.1"))
        .unwrap();
    // A corrupt entry is missing: rebuilt from the source.
    std::fs::write(framework, b"{\"format\": 1, \"tool\": ").unwrap();
    assert_eq!(run(&[]), first);
    assert!(key(framework).starts_with("git accel-framework 0.3.1"));
    // The source now replaces by design: a run that read it would find
    // nothing, so the finding of the cached run shows no source was read.
    let source = checked_out(&home);
    let text = std::fs::read_to_string(&source).unwrap();
    let start = text.find("        match self.priorities.entry").unwrap();
    let end = text[start..].find("\n    }\n").unwrap() + start;
    let replacing = format!(
        "{}        self.priorities.insert(name.to_string(), priority);\n        Ok(()){}",
        &text[..start],
        &text[end..]
    );
    std::fs::write(&source, replacing).unwrap();
    assert_eq!(run(&[]), first);
    assert!(!run(&["--no-cache"]).contains("add_platform"));
}

/// A `cargo` in `dir/bin` that logs each command line it is given to
/// `dir/cargo.log`, then runs the real one (with the `rustc` beside it, the
/// one cargo is given): the cargo path and the log.
#[cfg(unix)]
fn logging_cargo(dir: &Path) -> (PathBuf, PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let log = dir.join("cargo.log");
    let cargo = dir.join("bin/cargo");
    std::fs::create_dir_all(cargo.parent().unwrap()).unwrap();
    std::fs::write(
        &cargo,
        format!(
            "#!/bin/sh\necho \"$@\" >> '{}'\nexec '{}' \"$@\"\n",
            log.display(),
            env!("CARGO")
        ),
    )
    .unwrap();
    std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();
    let rustc = Path::new(env!("CARGO")).with_file_name("rustc");
    std::os::unix::fs::symlink(rustc, cargo.with_file_name("rustc")).unwrap();
    (cargo, log)
}

/// Cargo's answer is kept too: a second run on a workspace whose manifests,
/// lockfile and cargo configuration did not change asks cargo nothing (a
/// cargo that logs what it is asked shows it), and reports the same; a
/// changed manifest, or a cargo configuration that appears, asks again.
#[cfg(unix)]
#[test]
fn a_second_run_asks_cargo_nothing_until_a_manifest_or_config_changes() {
    let (dir, ws) = seed();
    let cache = dir.path().join("cache");
    let (cargo, log) = logging_cargo(dir.path());
    let run = || {
        let _ = std::fs::remove_file(&log);
        let (stdout, stderr, _) = run_cmd(
            bin(&ws)
                .env("CARGO", &cargo)
                .args(["check", "--format", "short", "--cache-dir"])
                .arg(&cache),
        );
        let asked = std::fs::read_to_string(&log).unwrap_or_default();
        (stdout, stderr, asked.contains("metadata"))
    };
    let (first, stderr, asked) = run();
    assert!(asked, "{stderr}");
    assert!(first.contains("with `add_platform`"), "{first}\n{stderr}");
    let (second, stderr, asked) = run();
    assert!(!asked, "cargo was asked again: {stderr}");
    assert_eq!(second, first);
    // A member's manifest changes (a new feature: the lockfile stays).
    let manifest = ws.join("plugin/Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, format!("{text}\n[features]\nextra = []\n")).unwrap();
    let (third, _, asked) = run();
    assert!(asked);
    assert_eq!(third, first);
    assert!(!run().2);
    // A cargo configuration appears in a folder above the workspace.
    common::write(dir.path(), ".cargo/config.toml", "[net]\noffline = true\n");
    assert!(run().2);
    assert!(!run().2);
    // Without the cache, cargo is asked every time.
    let _ = std::fs::remove_file(&log);
    run_cmd(
        bin(&ws)
            .env("CARGO", &cargo)
            .args(["check", "--format", "short", "--no-cache"]),
    );
    assert!(std::fs::read_to_string(&log).unwrap().contains("metadata"));
}

/// Without `Cargo.lock`, cargo would write one: the dependencies are not
/// read, and the checkout is left as it was.
#[test]
fn no_lockfile_is_written_in_the_checkout() {
    let (_dir, ws) = seed();
    std::fs::remove_file(ws.join("Cargo.lock")).unwrap();
    let (stdout, stderr, _) = run_cmd(bin(&ws).args(["check", "--format", "short"]));
    assert!(!ws.join("Cargo.lock").exists());
    assert_eq!(stderr.matches("run `cargo fetch`").count(), 1, "{stderr}");
    assert!(!stdout.contains("add_platform"), "{stdout}");
}

/// A `[patch]` leading out of the checkout (the lockfile updated for it, as
/// the checkout's author would commit it): the patched package is not
/// read, it is listed, and its place is not shown.
#[test]
fn a_patch_leading_out_of_the_checkout_is_never_read() {
    let (dir, ws) = seed();
    let out = dir.path().join("patched-out");
    copy_dir(&ws.join("vendor/accel-framework"), &out);
    std::fs::remove_file(out.join(".cargo-checksum.json")).unwrap();
    let manifest = ws.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let text =
        format!("{text}\n[patch.crates-io]\naccel-framework = {{ path = \"../patched-out\" }}\n");
    std::fs::write(&manifest, text).unwrap();
    let lock = Command::new(env!("CARGO"))
        .current_dir(&ws)
        .args(["update", "--offline", "-p", "accel-framework"])
        .output()
        .unwrap();
    assert!(
        lock.status.success(),
        "{}",
        String::from_utf8_lossy(&lock.stderr)
    );
    let (stdout, stderr, _) = run_cmd(bin(&ws).args(["check", "--format", "short", "--no-cache"]));
    assert!(!stderr.contains("run `cargo fetch`"), "{stderr}");
    assert!(!stdout.contains("add_platform"), "{stdout}");
    assert!(
        stderr.contains(
            "dependency `accel-framework 0.3.1` skipped: a path dependency outside the checkout"
        ),
        "{stderr}"
    );
    // The vendored one it stands for is read as before.
    assert!(!stderr.contains("`device-table 1.0.2` skipped"), "{stderr}");
    assert!(!stderr.contains("patched-out"), "{stderr}");
}

/// The vendored sources moved out of the checkout, reached by a source
/// replacement leading out of it, or by a vendor folder that is a link out:
/// nothing there is read, and each package is listed.
#[test]
fn vendored_sources_out_of_the_checkout_are_never_read() {
    for how in ["replacement", "link"] {
        let (dir, ws) = seed();
        let out = dir.path().join("vendor-out");
        std::fs::rename(ws.join("vendor"), &out).unwrap();
        match how {
            "replacement" => {
                let config = ws.join(".cargo/config.toml");
                let text = std::fs::read_to_string(&config).unwrap();
                let text = text.replace("directory = \"vendor\"", "directory = \"../vendor-out\"");
                std::fs::write(config, text).unwrap();
            }
            _ => std::os::unix::fs::symlink(&out, ws.join("vendor")).unwrap(),
        }
        let (stdout, stderr, _) = run_cmd(bin(&ws).args(["check", "--format", "short"]));
        assert!(!stdout.contains("add_platform"), "{how}: {stdout}");
        for name in ["accel-framework 0.3.1", "device-table 1.0.2"] {
            assert!(
                stderr.contains(&format!(
                    "dependency `{name}` skipped: its source is outside the checkout"
                )),
                "{how}: {stderr}"
            );
        }
        assert!(!stderr.contains("vendor-out"), "{how}: {stderr}");
    }
}

/// With dependencies, cargo runs rustc to learn about the target: never
/// the `build.rustc` or `build.rustc-wrapper` the checkout's
/// `.cargo/config.toml` names.
#[cfg(unix)]
#[test]
fn no_rustc_or_wrapper_the_checkout_names_runs() {
    use std::os::unix::fs::PermissionsExt;
    for key in ["rustc-wrapper", "rustc"] {
        let (dir, ws) = seed();
        let marker = dir.path().join("ran");
        let script = ws.join("tools/rustc.sh");
        common::write(
            &ws,
            "tools/rustc.sh",
            format!(
                "#!/bin/sh\ntouch '{}'\nexec rustc \"$@\"\n",
                marker.display()
            ),
        );
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let config = ws.join(".cargo/config.toml");
        let text = std::fs::read_to_string(&config).unwrap();
        let text = format!("{text}\n[build]\n{key} = \"{}\"\n", script.display());
        std::fs::write(config, text).unwrap();
        let (stdout, stderr, _) =
            run_cmd(bin(&ws).args(["check", "--format", "short", "--no-cache"]));
        assert!(!marker.exists(), "{key}: the checkout's program ran");
        assert!(stdout.contains("add_platform"), "{key}: {stdout}\n{stderr}");
    }
}

/// A singleton of a dependency (issue 29): `device_table::install` fails on
/// its second call by an exchange on a static, `device_table::init` wraps
/// it; a member calling both on one path is reported where the second
/// call is, with where it was learned, and the same from the cached
/// summary (no source read: the source changed to succeed every time).
#[test]
fn a_dependency_s_singleton_is_learned_from_its_source_and_its_cached_summary() {
    let (dir, ws) = seed();
    let cache = dir.path().join("cache");
    let source = ws.join("vendor/device-table/src/lib.rs");
    let mut text = std::fs::read_to_string(&source).unwrap();
    text.push_str(
        "
static STATE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

#[derive(Debug)]
pub struct AlreadyInstalled;

/// Installs the global table; fails when one is installed.
pub fn install() -> Result<(), AlreadyInstalled> {
    match STATE.compare_exchange(0, 1, std::sync::atomic::Ordering::AcqRel, std::sync::atomic::Ordering::Acquire) {
        Ok(_) => Ok(()),
        Err(_) => Err(AlreadyInstalled),
    }
}

/// Installs it, panicking when one is.
pub fn init() {
    install().expect(\"a table is installed already\");
}
",
    );
    std::fs::write(&source, &text).unwrap();
    let member = ws.join("tables/src/lib.rs");
    let mut own = std::fs::read_to_string(&member).unwrap();
    own.push_str(
        "
pub fn setup() {
    device_table::init();
}

pub fn start() {
    setup();
    device_table::install().unwrap();
    let _ = device_table::install();
}
",
    );
    std::fs::write(&member, own).unwrap();
    let run = |extra: &[&str]| {
        let (stdout, stderr, _) = run_cmd(
            bin(&ws)
                .args(["check", "--format", "short", "--cache-dir"])
                .arg(&cache)
                .args(extra),
        );
        (stdout, stderr)
    };
    let (first, stderr) = run(&[]);
    let findings: Vec<&str> = (first.lines())
        .filter(|l| l.contains("[initialized_twice]"))
        .collect();
    // `start` calls `setup` (which calls `init`), then `install`: the
    // second; the discarded third stays quiet.
    assert_eq!(findings.len(), 1, "{first}\n{stderr}");
    assert!(findings[0].starts_with("tables/src/lib.rs:22:"), "{first}");
    let (long, _) = {
        let (stdout, stderr, _) = run_cmd(bin(&ws).args(["check", "--cache-dir"]).arg(&cache));
        (stdout, stderr)
    };
    assert!(
        long.contains("learned from device-table-1.0.2/src/lib.rs:"),
        "{long}"
    );
    // From the cache: the source now succeeds every time, unread. A
    // vendored source is keyed by its files' sizes and times: both are
    // kept as they were, so the entry still holds.
    let replaced = text.replace(
        "Err(_) => Err(AlreadyInstalled)",
        "Err(_) => Ok(())               ",
    );
    assert_eq!(replaced.len(), text.len());
    let modified = std::fs::metadata(&source).unwrap().modified().unwrap();
    std::fs::write(&source, replaced).unwrap();
    let file = std::fs::File::options().write(true).open(&source).unwrap();
    file.set_modified(modified).unwrap();
    drop(file);
    assert_eq!(run(&[]).0, first);
    let (fresh, stderr) = run(&["--no-cache"]);
    assert!(!fresh.contains("[initialized_twice]"), "{fresh}");
    assert!(!stderr.contains("error"), "{stderr}");
}

/// `check .` at the workspace's root (what most people type, and what a
/// script passes) learns from the dependencies as `check` does: the
/// framework's rejection, in a git dependency out of the checkout, is
/// found through its registrations either way. A folder inside a package
/// (`check plugin/src`) asks cargo nothing and reads no dependency.
#[test]
fn a_folder_holding_the_packages_learns_from_their_dependencies_too() {
    let (dir, ws, home) = git_workspace();
    let run = |args: &[&str]| {
        let (stdout, stderr, _) = run_cmd(
            bin(&ws)
                .env("CARGO_HOME", &home)
                .args(["check", "--format", "short", "--no-cache"])
                .args(args),
        );
        (stdout, stderr)
    };
    let (whole, _) = run(&[]);
    assert!(whole.contains("with `add_platform`"), "{whole}");
    let (dot, stderr) = run(&["."]);
    assert_eq!(found(&dot), found(&whole), "{dot}\n{stderr}");
    let (member, _) = run(&["plugin"]);
    assert!(member.contains("with `add_platform`"), "{member}");
    // Inside a package: the files alone, as before; no cargo asked.
    let (inner, stderr) = run(&["plugin/src"]);
    assert!(!inner.contains("with `add_platform`"), "{inner}");
    assert!(!stderr.contains("dependenc"), "{stderr}");
    drop(dir);
}

/// `config` builds every package's model to count what resolves: the
/// members of one workspace share one `cargo metadata --no-deps` for their
/// models, not one each (kornia's 20 members: 157 s -> 76 s).
#[cfg(unix)]
#[test]
fn config_asks_cargo_for_the_members_once_per_workspace() {
    let (dir, ws) = seed();
    let (cargo, log) = logging_cargo(dir.path());
    let (stdout, stderr, _) =
        run_cmd(
            bin(&ws)
                .env("CARGO", &cargo)
                .args(["config", ".", "--no-cache"]),
        );
    assert!(stdout.contains("# Name resolution"), "{stdout}\n{stderr}");
    let asked = std::fs::read_to_string(&log).unwrap_or_default();
    // One answer for the model the analysis asks of `plugin`, and one for
    // the two members' models the count builds (one each before: 3).
    let for_models = (asked.lines())
        .filter(|l| l.contains("metadata") && l.contains("--no-deps"))
        .count();
    assert_eq!(for_models, 2, "{asked}");
}

/// A dependency's singleton kept in a flag (ctrlc's `set_handler`: an
/// `AtomicBool` tested, set on success, `Err` after the test), called by
/// its name alone through a `use` of the dependency: the `use` says whose
/// it is, as a path would. A probe whose `?` is on the winning side of its
/// exchange succeeds every time, and stays quiet.
#[test]
fn a_dependency_s_flag_singleton_is_found_through_a_use() {
    let (_dir, ws) = seed();
    let source = ws.join("vendor/device-table/src/lib.rs");
    let mut text = std::fs::read_to_string(&source).unwrap();
    text.push_str(
        "
use std::sync::atomic::{AtomicBool, Ordering};

static INIT: AtomicBool = AtomicBool::new(false);
static PROBED: AtomicBool = AtomicBool::new(false);

#[derive(Debug)]
pub struct MultipleHandlers;

fn os_handler() -> Result<(), MultipleHandlers> {
    Ok(())
}

/// Installs the process's handler; a second one is refused.
pub fn set_handler() -> Result<(), MultipleHandlers> {
    if !INIT.load(Ordering::Acquire) {
        os_handler()?;
        INIT.store(true, Ordering::Release);
        return Ok(());
    }
    Err(MultipleHandlers)
}

fn page_size() -> Option<usize> {
    Some(4096)
}

/// Two handlers of one flag, each a type's `install`.
pub struct Console;
pub struct Audit;

impl Console {
    pub fn install() -> Result<(), MultipleHandlers> {
        set_handler()
    }
}

impl Audit {
    pub fn install() -> Result<(), MultipleHandlers> {
        set_handler()
    }
}

/// Probes the machine once; every call answers.
pub fn probe() -> Option<usize> {
    if let Ok(false) = PROBED.compare_exchange(false, true, Ordering::Relaxed, Ordering::Relaxed) {
        page_size()?;
    }
    Some(1)
}
",
    );
    std::fs::write(&source, &text).unwrap();
    let member = ws.join("tables/src/lib.rs");
    let mut own = std::fs::read_to_string(&member).unwrap();
    own.push_str(
        "
use device_table::{probe, set_handler};

pub fn on_stop() {
    set_handler().expect(\"a handler\");
}

pub fn serve() {
    on_stop();
    probe().unwrap();
    probe().unwrap();
    set_handler().expect(\"a handler\");
}

pub fn audit() {
    device_table::Audit::install().expect(\"the audit handler\");
}

pub fn serve_audited() {
    device_table::Console::install().expect(\"the console handler\");
    audit();
}
",
    );
    std::fs::write(&member, own).unwrap();
    let (stdout, stderr, _) = run_cmd(bin(&ws).args(["check", "--format", "short", "--no-cache"]));
    let findings: Vec<&str> = (stdout.lines())
        .filter(|l| l.contains("[initialized_twice]"))
        .collect();
    assert_eq!(findings.len(), 2, "{stdout}\n{stderr}");
    assert!(findings[0].starts_with("tables/src/lib.rs:26:"), "{stdout}");
    assert!(findings[0].contains("`set_handler`"), "{stdout}");
    // The help names the `install` the helper calls (`Audit`'s), not the
    // first one of that name.
    let (long, _, _) = run_cmd(bin(&ws).args(["check", "--no-cache", "--color", "never"]));
    let audit = text.lines().position(|l| l == "impl Audit {").unwrap() + 2;
    assert!(
        long.contains(&format!(
            "learned from device-table-1.0.2/src/lib.rs:{audit}:"
        )),
        "{long}"
    );
}

/// A dependency's singleton is reached through its crate's path only:
/// `video::init()` (a module of the workspace) and `sdl::init()` (another
/// crate's `init`) are other functions than `device_table::init`
/// (p40: rust-sdl2's `sdl2::init()` read as `env_logger::init`).
#[test]
fn a_dependency_s_singleton_is_not_reached_through_another_path() {
    let (_dir, ws) = seed();
    let source = ws.join("vendor/device-table/src/lib.rs");
    let mut text = std::fs::read_to_string(&source).unwrap();
    text.push_str(
        "
use std::sync::atomic::{AtomicBool, Ordering};

static INIT: AtomicBool = AtomicBool::new(false);

#[derive(Debug)]
pub struct Installed;

/// Installs the process's logger; a second one is refused.
pub fn init() -> Result<(), Installed> {
    if INIT.swap(true, Ordering::AcqRel) {
        return Err(Installed);
    }
    Ok(())
}
",
    );
    std::fs::write(&source, &text).unwrap();
    let member = ws.join("tables/src/lib.rs");
    let mut own = std::fs::read_to_string(&member).unwrap();
    own.push_str(
        "
pub mod video {
    pub fn init() -> Result<(), ()> {
        Ok(())
    }
}

pub fn start() {
    device_table::init().expect(\"a logger\");
    video::init().unwrap();
    crate::video::init().unwrap();
}

pub fn start_twice() {
    device_table::init().expect(\"a logger\");
    device_table::init().expect(\"a logger\");
}
",
    );
    std::fs::write(&member, own).unwrap();
    let (stdout, stderr, _) = run_cmd(bin(&ws).args(["check", "--format", "short", "--no-cache"]));
    let findings: Vec<&str> = (stdout.lines())
        .filter(|l| l.contains("[initialized_twice]"))
        .collect();
    // The dependency's own path twice is found; the module's `init` is not it.
    assert_eq!(findings.len(), 1, "{stdout}\n{stderr}");
    assert!(findings[0].contains("`init`"), "{stdout}");
    let line = std::fs::read_to_string(&member).unwrap().lines().count() - 1;
    assert!(
        findings[0].starts_with(&format!("tables/src/lib.rs:{line}:")),
        "{stdout}"
    );
}

/// `file:line` of each `//~ LINT` marker under `ws`.
fn marked_for(ws: &Path, lint: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut todo = vec![ws.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                let rel = path
                    .strip_prefix(ws)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                for (n, line) in text.lines().enumerate() {
                    if line.contains(&format!("//~ {lint}")) {
                        out.push(format!("{rel}:{}", n + 1));
                    }
                }
            }
        }
    }
    out.sort();
    out
}

/// A singleton of one package of the workspace is reached from the others
/// by a path through its crate (`ws_drivers::install_drivers`) and through
/// a package re-exporting it (`ws_facade::any::install_drivers` after `pub
/// use ws_drivers::install_drivers;`): installed once by the facade's
/// run-once default, then again by the binary's library, with the error
/// shown (`if let Err(e) = run() { ..; exit(1) }`).
#[test]
fn a_workspace_package_s_singleton_is_reached_from_the_others_and_through_a_reexport() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(
        &common::root().join("tests/data/workspace_singletons"),
        dir.path(),
    );
    let (stdout, stderr, _) =
        run_cmd(bin(dir.path()).args(["check", "--format", "short", "--no-cache"]));
    let mut found = found_of(&stdout, "initialized_twice");
    found.sort();
    assert_eq!(
        found,
        marked_for(dir.path(), "initialized_twice"),
        "{stdout}\n{stderr}"
    );
    assert!(
        stdout.contains("first through `install_default_drivers`"),
        "{stdout}"
    );
}
