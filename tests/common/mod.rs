//! Helpers shared by the integration tests.
#![allow(dead_code)] // each test binary uses its own part

use std::path::{Path, PathBuf};
use std::sync::Arc;

use backend_lint::config::{Config, Overrides};
use backend_lint::lints::LINTS;
use backend_lint::run::{Input, Outcome, analyze, builtin_config};

/// Copy the folder `from` into `to`, every file and folder but a `target/`.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "target" {
            continue;
        }
        let target = to.join(&name);
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Write `contents` to `dir/name`, creating folders; returns the path.
pub fn write(dir: &Path, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, contents).unwrap();
    path
}

/// Compare with `tests/snapshots/<name>`; `UPDATE_EXPECT=1` rewrites it.
/// The version and this checkout's path are replaced by placeholders.
pub fn snapshot(name: &str, actual: &str) {
    let path = root().join("tests/snapshots").join(name);
    let actual = actual
        .replace(env!("CARGO_PKG_VERSION"), "[VERSION]")
        .replace(&root().display().to_string(), "[ROOT]");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("missing {}: run UPDATE_EXPECT=1 cargo test", path.display()));
    assert_eq!(
        expected,
        actual,
        "{} differs; run UPDATE_EXPECT=1 cargo test and review",
        path.display()
    );
}

/// The `.rs` files under `dir`, sorted.
pub fn rs_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(rs_files(&p));
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// A fixture of `lints/<name>/`: a `bad*`/`good*` file, or a folder of files
/// forming one crate, with its own `backend-lint.toml` or the built-in
/// configuration (not this repository's, which excludes `lints/`).
pub struct Fixture {
    pub path: PathBuf,
    pub files: Vec<PathBuf>,
    pub config: Arc<Config>,
}

impl Fixture {
    pub fn name(&self) -> String {
        self.path
            .strip_prefix(root())
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/")
    }

    pub fn expected_path(&self) -> PathBuf {
        self.path.with_extension("expected")
    }

    /// The inputs of one run: the files not excluded, shown relative to the root.
    pub fn inputs(&self) -> Vec<Input> {
        self.files
            .iter()
            .filter(|p| !self.config.excludes(p))
            .map(|p| {
                let shown = p
                    .strip_prefix(root())
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                let mut input = Input::new(p.clone(), shown, 0);
                input.config = self.config.clone();
                input.package_root = package_root(p);
                input
            })
            .collect()
    }
}

/// The fixtures of one folder of `lints/`, in name order.
pub fn fixtures(dir: &Path) -> Vec<Fixture> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    let mut out = Vec::new();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !(name.starts_with("bad") || name.starts_with("good")) {
            continue;
        }
        if path.is_dir() {
            let file = path.join("backend-lint.toml");
            let config = if file.is_file() {
                match Config::load(&file, &Overrides::default()) {
                    Ok(Some(c)) => Arc::new(c),
                    Ok(None) => unreachable!("a backend-lint.toml always is a configuration"),
                    Err(e) => panic!("{}", e.render(false)),
                }
            } else {
                builtin_config()
            };
            out.push(Fixture {
                files: rs_files(&path),
                path,
                config,
            });
        } else if name.ends_with(".rs") {
            out.push(Fixture {
                files: vec![path.clone()],
                path,
                config: builtin_config(),
            });
        }
    }
    out
}

/// Files analysed together, with their configuration.
pub struct Crate {
    pub name: String,
    pub files: Vec<PathBuf>,
    pub config: Arc<Config>,
}

/// Every fixture of `lints/` (a file, or a folder with its own
/// `backend-lint.toml`), the demo crate and the sample crate.
pub fn fixture_crates() -> Vec<Crate> {
    let mut lint_dirs: Vec<PathBuf> = std::fs::read_dir(root().join("lints"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    lint_dirs.sort();
    let mut out: Vec<Crate> = lint_dirs
        .iter()
        .flat_map(|dir| fixtures(dir))
        .map(|f| Crate {
            name: f.name(),
            files: f.files,
            config: f.config,
        })
        .collect();
    for dir in ["examples/demo", "tests/data/sample"] {
        out.push(Crate {
            name: dir.to_string(),
            files: rs_files(&root().join(dir)),
            config: builtin_config(),
        });
    }
    out
}

pub fn run(krate: &Crate, prefilter: bool) -> Outcome {
    analyze(inputs(krate, prefilter), LINTS)
}

/// The inputs of a crate's files, in one mode.
pub fn inputs(krate: &Crate, prefilter: bool) -> Vec<Input> {
    krate
        .files
        .iter()
        .filter(|p| !krate.config.excludes(p))
        .map(|p| {
            let mut input = Input::new(p.clone(), p.display().to_string(), 0);
            input.config = krate.config.clone();
            input.prefilter = prefilter;
            input.package_root = package_root(p);
            input
        })
        .collect()
}

/// What differs between the report of the default mode and the full one.
pub fn differences(name: &str, default: &Outcome, full: &Outcome) -> Vec<String> {
    differences_between(name, (default, "by default"), (full, "with --no-prefilter"))
}

/// What differs between two reports of the same files, each with a label.
pub fn differences_between(
    name: &str,
    (first, a): (&Outcome, &str),
    (second, b): (&Outcome, &str),
) -> Vec<String> {
    let mut out = Vec::new();
    if first.diagnostics != second.diagnostics {
        out.push(format!(
            "{name}: {} findings {a}, {} {b}",
            first.diagnostics.len(),
            second.diagnostics.len()
        ));
    }
    if first.errors != second.errors {
        out.push(format!(
            "{name}: errors differ: {:?} {a}, {:?} {b}",
            first.errors, second.errors
        ));
    }
    out
}

pub fn budget() -> usize {
    std::env::var("BACKEND_LINT_CORPUS_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8usize)
        * 1_000_000
}

/// Every `stride`-th file, so that `budget` spans every crate.
pub fn sample(files: Vec<PathBuf>, budget: usize) -> Vec<PathBuf> {
    let total: u64 = files
        .iter()
        .filter_map(|f| std::fs::metadata(f).ok())
        .map(|m| m.len())
        .sum();
    let stride = match budget {
        0 => 1,
        b => (total as usize).div_ceil(b).max(1),
    };
    files.into_iter().step_by(stride).collect()
}

/// The folder of real code the corpus tests read: `BACKEND_LINT_CORPUS`, a
/// folder whose subfolders are crates or whole runtimes (`.ci/run` gives the
/// crates cargo unpacked in `$CARGO_HOME/registry/src/*`). The tests that
/// need it are `#[ignore]`d; run without it, they fail saying so.
pub fn corpus() -> PathBuf {
    match std::env::var_os("BACKEND_LINT_CORPUS").filter(|v| !v.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => panic!(
            "this test reads real code: set BACKEND_LINT_CORPUS to a folder of crates, \
             e.g. one of ~/.cargo/registry/src/*"
        ),
    }
}

/// Each subfolder of the corpus a crate, all of them within the budget.
pub fn corpus_crates() -> Vec<Crate> {
    let dir = corpus();
    let entries = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("BACKEND_LINT_CORPUS `{}`: {e}", dir.display()));
    let mut dirs: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty(), "no folder in `{}`", dir.display());
    // A dozen runtimes get an eighth of the budget each; a registry of
    // hundreds of crates shares it.
    let each = budget() / dirs.len().max(8);
    dirs.into_iter()
        .map(|dir| Crate {
            name: dir.display().to_string(),
            files: sample(rs_files(&dir), each),
            config: builtin_config(),
        })
        .collect()
}

/// The package folder of a file, as discovery gives it to the engine.
pub fn package_root(file: &Path) -> Option<std::sync::Arc<Path>> {
    backend_lint::run::discover::package_root_of(file).map(std::sync::Arc::from)
}

/// The binary, run in `dir` (no colors, no step summary).
pub fn bin(dir: &Path) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("backend-lint").unwrap();
    cmd.current_dir(dir)
        .env_remove("GITHUB_STEP_SUMMARY")
        .env("NO_COLOR", "1");
    cmd
}

pub fn run_cmd(cmd: &mut assert_cmd::Command) -> (String, String, i32) {
    let out = cmd.output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap(),
    )
}

/// A duplicate registration (deny), a raw comparison (deny) and a
/// suppression comment that silences nothing (`unused_suppression`, warn).
pub const LIB: &str = r#"pub struct Registry;
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
// backend-lint: allow(lowering_backend_mismatch)
pub fn other() {}
"#;

/// A package `demo` in a temporary folder, with `src/lib.rs` and an optional config.
pub fn package(config: Option<&str>) -> tempfile::TempDir {
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
