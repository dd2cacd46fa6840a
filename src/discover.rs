//! Which files a run reads, and which of them form one crate.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::engine::Input;
use crate::source::display_path;

/// A path given on the command line that could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathError {
    pub path: PathBuf,
    pub message: String,
}

/// Expand `paths` into the Rust files to analyse.
///
/// Directories are walked with the `ignore` crate: `.gitignore` (also outside
/// a git checkout), `.ignore`, hidden entries and `target/` are skipped, and
/// only `.rs` files are kept; a file whose real path is outside the folder,
/// or that is no regular file, is listed as skipped (`Boundary`). A file
/// named explicitly is always analysed: the user chose it.
pub fn collect(paths: &[PathBuf], base: &Path) -> (Vec<Input>, Vec<PathError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        let meta = match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) => {
                errors.push(PathError {
                    path: path.clone(),
                    message: format!("cannot read `{}`: {e}", path.display()),
                });
                continue;
            }
        };
        if meta.is_file() {
            files.push(Found {
                path: path.clone(),
                skip: None,
            });
        } else if meta.is_dir() {
            let boundary = Boundary::new(path, "folder");
            walk_rs(path, false, &boundary, &mut files, &mut errors);
        } else {
            // Never opened: a FIFO would block the run until written to.
            errors.push(PathError {
                path: path.clone(),
                message: format!(
                    "cannot check `{}`: it is {}, not a file or a folder",
                    path.display(),
                    kind(meta.file_type())
                ),
            });
        }
    }
    let mut packages = PackageFinder::default();
    let inputs = files
        .into_iter()
        .map(|found| {
            let krate = packages.krate_of(&found.path);
            found.input(base, krate)
        })
        .collect();
    (inputs, errors)
}

/// A file a walk found: to read, or to list as skipped, with why.
struct Found {
    path: PathBuf,
    skip: Option<String>,
}

impl Found {
    fn input(self, base: &Path, krate: usize) -> Input {
        let mut input = Input::new(self.path.clone(), display_path(&self.path, base), krate);
        input.skip = self.skip;
        input
    }
}

/// Where the files of a run must really be (links resolved) to be opened:
/// the cargo workspace, the package, or the folder given. A checkout is
/// untrusted: a link (`src/main.rs -> /etc/passwd`) or a cargo target path
/// (`[lib] path = "../../.cargo/credentials.toml"`) would otherwise put
/// another file's lines in a parse error's excerpt, in a public CI log.
struct Boundary {
    /// Canonical.
    root: PathBuf,
    /// What `root` is, for the messages: "workspace", "package", "folder".
    what: &'static str,
}

impl Boundary {
    fn new(root: &Path, what: &'static str) -> Boundary {
        // A root that cannot be resolved is kept as it is: no real path is
        // inside it, so every link is skipped rather than followed.
        let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        Boundary { root, what }
    }

    /// Why the file at `path` (a link, or a target path of cargo metadata)
    /// is not to be opened; `None` to read it. Asks for metadata only.
    fn check(&self, path: &Path) -> Option<String> {
        let real = match std::fs::canonicalize(path) {
            Ok(real) => real,
            Err(e) => return Some(format!("cannot resolve its path ({e}); it was not read")),
        };
        if !real.starts_with(&self.root) {
            return Some(self.outside(&real, "it was not read"));
        }
        match std::fs::metadata(&real) {
            Ok(meta) if meta.is_file() => None,
            Ok(meta) => Some(not_regular(meta.file_type())),
            Err(e) => Some(format!("cannot read its metadata ({e}); it was not read")),
        }
    }

    fn outside(&self, real: &Path, then: &str) -> String {
        format!(
            "its real path `{}` is outside the {} `{}`; {then}",
            real.display(),
            self.what,
            self.root.display()
        )
    }
}

/// Why a FIFO or a device is not read: opening a FIFO blocks until it is
/// written to; `/dev/zero` never ends.
fn not_regular(file_type: std::fs::FileType) -> String {
    format!("not a regular file ({}); it was not read", kind(file_type))
}

/// What a file that is not a regular file is, in words.
fn kind(file_type: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
    }
    if file_type.is_dir() {
        "a folder"
    } else if file_type.is_symlink() {
        "a link"
    } else {
        "a file of an unknown kind"
    }
}

/// The `.rs` files under `dir`, honouring `.gitignore` (also outside a git
/// checkout) and `.ignore`, without hidden entries and `target/`; with
/// `own_package`, without nested packages (folders with their own `Cargo.toml`).
/// Files `boundary` refuses, and what is no regular file, come with why.
///
/// The walker follows no link below `dir`, so only `dir` itself and the
/// links met are resolved, not every file: a canonicalize is a system call
/// per component of the path, and a run walks thousands of files.
fn walk_rs(
    dir: &Path,
    own_package: bool,
    boundary: &Boundary,
    files: &mut Vec<Found>,
    errors: &mut Vec<PathError>,
) {
    // A member, or the folder given, that is a link out: its files are not
    // even listed (their names too are another folder's).
    if let Ok(real) = std::fs::canonicalize(dir)
        && !real.starts_with(&boundary.root)
    {
        let skip = boundary.outside(&real, "its files were not read");
        files.push(Found {
            path: dir.to_path_buf(),
            skip: Some(skip),
        });
        return;
    }
    let root = dir.to_path_buf();
    let walker = ignore::WalkBuilder::new(dir)
        .hidden(true)
        .require_git(false)
        .filter_entry(move |e| {
            let is_dir = e.file_type().is_some_and(|t| t.is_dir());
            let nested_package =
                own_package && e.path() != root && e.path().join("Cargo.toml").is_file();
            !(is_dir && (e.file_name() == "target" || nested_package))
        })
        .build();
    for entry in walker {
        match entry {
            Ok(e) if e.path().extension().is_some_and(|x| x == "rs") => {
                files.extend(found(e, boundary));
            }
            Ok(_) => {}
            Err(e) => errors.push(PathError {
                path: dir.to_path_buf(),
                message: format!("while walking `{}`: {e}", dir.display()),
            }),
        }
    }
}

/// What a walk does with a `.rs` entry: read it, list it as skipped (a
/// link out of `boundary`, a FIFO, a device), or pass it by (a folder).
fn found(entry: ignore::DirEntry, boundary: &Boundary) -> Option<Found> {
    let file_type = entry.file_type()?;
    let skip = if file_type.is_file() {
        None
    } else if entry.path_is_symlink() {
        boundary.check(entry.path())
    } else if file_type.is_dir() {
        return None;
    } else {
        Some(not_regular(file_type))
    };
    Some(Found {
        path: entry.into_path(),
        skip,
    })
}

/// Groups files by the nearest directory holding a `Cargo.toml`: duplicate
/// registrations are looked for within one package, not across packages.
#[derive(Default)]
struct PackageFinder {
    by_dir: HashMap<PathBuf, usize>,
    roots: HashMap<Option<PathBuf>, usize>,
}

impl PackageFinder {
    fn krate_of(&mut self, file: &Path) -> usize {
        let abs = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
        let dir = abs.parent().map(Path::to_path_buf).unwrap_or_default();
        if let Some(&k) = self.by_dir.get(&dir) {
            return k;
        }
        let root = dir
            .ancestors()
            .find(|d| d.join("Cargo.toml").is_file())
            .map(Path::to_path_buf);
        let next = self.roots.len();
        let k = *self.roots.entry(root).or_insert(next);
        self.by_dir.insert(dir, k);
        k
    }
}

/// Which packages of a cargo workspace to lint, as cargo's own flags say.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    pub manifest_path: Option<PathBuf>,
    pub workspace: bool,
    pub packages: Vec<String>,
    pub exclude: Vec<String>,
}

/// A package to lint: its name and the folder of its `Cargo.toml`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    pub name: String,
    pub root: PathBuf,
    /// Target source files (lib, bins, tests, examples, benches, build script);
    /// included even when they live outside `root`, but only opened when
    /// their real path is inside `workspace_root`.
    pub targets: Vec<PathBuf>,
    /// The root of its cargo workspace (`root` when none): no file whose
    /// real path is elsewhere is opened.
    pub workspace_root: PathBuf,
}

/// The cargo to ask for metadata, never one the analysed checkout chooses.
///
/// `cargo backend-lint`: cargo sets `CARGO` to its own binary; that one. Run
/// directly, `cargo` is usually rustup's proxy, which would honour the
/// checkout's `rust-toolchain.toml` (a `path = "./tc"` toolchain runs the
/// checkout's own program; a pinned toolchain that is not installed fails):
/// pin the toolchain to `RUSTUP_TOOLCHAIN` if set, else rustup's default.
fn trusted_cargo() -> (PathBuf, Option<String>) {
    if let Some(cargo) = std::env::var_os("CARGO").filter(|c| !c.is_empty()) {
        return (PathBuf::from(cargo), None);
    }
    let toolchain = std::env::var("RUSTUP_TOOLCHAIN")
        .ok()
        .filter(|t| !t.is_empty())
        .or_else(rustup_default);
    (PathBuf::from("cargo"), toolchain)
}

/// `rustup default`'s toolchain, asked from a folder no checkout controls.
fn rustup_default() -> Option<String> {
    let out = std::process::Command::new("rustup")
        .arg("default")
        .current_dir(std::env::temp_dir())
        .env_remove("RUSTUP_TOOLCHAIN")
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let name = text.split_whitespace().next()?.to_string();
    (out.status.success() && !name.is_empty()).then_some(name)
}

/// The packages `cargo metadata --no-deps --offline` reports for the
/// selection. Runs a cargo the checkout does not choose (`trusted_cargo`),
/// which reads manifests only: no build, no build scripts, no network.
pub fn cargo_packages(base: &Path, sel: &Selection) -> Result<Vec<Package>, String> {
    let mut cmd = cargo_metadata::MetadataCommand::new();
    let (cargo, toolchain) = trusted_cargo();
    cmd.cargo_path(cargo);
    if let Some(t) = toolchain {
        cmd.env("RUSTUP_TOOLCHAIN", t);
    }
    cmd.no_deps()
        .current_dir(base)
        .other_options(vec!["--offline".to_string()]);
    if let Some(m) = &sel.manifest_path {
        cmd.manifest_path(m);
    }
    let meta = cmd
        .exec()
        .map_err(|e| format!("`cargo metadata` failed: {}", one_line(&e.to_string())))?;
    let members = meta.workspace_packages();
    let by_name = |name: &str| members.iter().copied().find(|p| p.name.as_str() == name);
    for name in sel.packages.iter().chain(&sel.exclude) {
        if by_name(name).is_none() {
            let names: Vec<&str> = members.iter().map(|p| p.name.as_str()).collect();
            return Err(format!(
                "package `{name}` is not a member of the workspace (members: {})",
                names.join(", ")
            ));
        }
    }
    let chosen: Vec<&cargo_metadata::Package> = if !sel.packages.is_empty() {
        sel.packages.iter().filter_map(|n| by_name(n)).collect()
    } else if sel.workspace {
        members.clone()
    } else {
        // As cargo: the package of the manifest at hand, else the default members.
        let manifest = match &sel.manifest_path {
            Some(m) => std::path::absolute(m).unwrap_or_else(|_| m.clone()),
            None => base
                .ancestors()
                .map(|d| d.join("Cargo.toml"))
                .find(|m| m.is_file())
                .unwrap_or_default(),
        };
        match members
            .iter()
            .find(|p| p.manifest_path.as_std_path() == manifest)
        {
            Some(p) => vec![*p],
            None if meta.workspace_default_members.is_available() => {
                meta.workspace_default_packages()
            }
            None => members.clone(),
        }
    };
    Ok(chosen
        .into_iter()
        .filter(|p| !sel.exclude.iter().any(|e| e == p.name.as_str()))
        .map(|p| Package {
            name: p.name.to_string(),
            root: p
                .manifest_path
                .parent()
                .map(|d| d.as_std_path().to_path_buf())
                .unwrap_or_default(),
            targets: p
                .targets
                .iter()
                .map(|t| t.src_path.as_std_path().to_path_buf())
                .collect(),
            workspace_root: meta.workspace_root.as_std_path().to_path_buf(),
        })
        .collect())
}

fn one_line(s: &str) -> String {
    s.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The files of packages, each package one crate for the crate-wide lints.
/// A package's files are the `.rs` files under its folder (honouring
/// `.gitignore`, without `target/` and without nested packages), plus its
/// target sources wherever they are; those whose real path is outside the
/// workspace, and what is no regular file, are listed as skipped.
pub fn package_inputs(packages: &[Package], base: &Path) -> (Vec<Input>, Vec<PathError>) {
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    for (krate, package) in packages.iter().enumerate() {
        let what = if package.workspace_root == package.root {
            "package"
        } else {
            "workspace"
        };
        let boundary = Boundary::new(&package.workspace_root, what);
        let mut files: Vec<Found> = Vec::new();
        walk_rs(&package.root, true, &boundary, &mut files, &mut errors);
        for t in &package.targets {
            // A target the walk did not meet: the manifest chose its path
            // (`[lib] path = "../../etc/passwd"`), so it is resolved. One
            // that does not exist is cargo's to report, at build time.
            let met = files.iter().any(|f| &f.path == t);
            if !met && t.symlink_metadata().is_ok() {
                files.push(Found {
                    path: t.clone(),
                    skip: boundary.check(t),
                });
            }
        }
        inputs.extend(files.into_iter().map(|found| {
            let target = package.targets.contains(&found.path);
            let mut input = found.input(base, krate);
            input.target = target;
            input
        }));
    }
    (inputs, errors)
}

/// The folder of the package a file belongs to: its nearest `Cargo.toml`.
pub fn package_root_of(file: &Path) -> Option<PathBuf> {
    let abs = std::path::absolute(file).ok()?;
    abs.parent()?
        .ancestors()
        .find(|d| d.join("Cargo.toml").is_file())
        .map(Path::to_path_buf)
}

/// For given files (pre-commit passes the changed ones): the whole package
/// of each, so that a registration in an unchanged file is still compared.
/// Files outside any package are analysed on their own.
pub fn packages_of_files(files: &[PathBuf], base: &Path) -> (Vec<Input>, Vec<PathError>) {
    let mut packages: Vec<Package> = Vec::new();
    for root in files.iter().filter_map(|f| package_root_of(f)) {
        if !packages.iter().any(|p| p.root == root) {
            let name = root
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            // The package folder bounds its files: finding its workspace
            // would take reading manifests above it.
            packages.push(Package {
                name,
                workspace_root: root.clone(),
                root,
                targets: Vec::new(),
            });
        }
    }
    let (mut inputs, errors) = package_inputs(&packages, base);
    // A given file is analysed even when ignored, inside a nested folder, or
    // a link out of its package: the user chose it.
    for f in files {
        let abs = std::path::absolute(f).unwrap_or_else(|_| f.clone());
        let known = inputs
            .iter_mut()
            .find(|i| std::path::absolute(&i.path).is_ok_and(|p| p == abs));
        if let Some(input) = known {
            input.skip = None;
        } else {
            let krate = package_root_of(f)
                .and_then(|r| packages.iter().position(|p| p.root == r))
                .unwrap_or(packages.len() + inputs.len());
            inputs.push(Input::new(f.clone(), display_path(f, base), krate));
        }
    }
    (inputs, errors)
}
