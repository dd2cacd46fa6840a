//! Which files a run reads, and which of them form one crate.

use std::collections::{HashMap, HashSet};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::{Config, ConfigError, Loader};
use crate::model::source::display_path;
use crate::run::{Input, builtin_config};

/// A path given on the command line that could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathError {
    pub path: PathBuf,
    pub message: String,
}

/// Expand `paths` into the Rust files to analyse.
///
/// Directories are walked with the `ignore` crate: `.gitignore` (also outside
/// a git checkout), `.ignore`, hidden entries and cargo's `target/` are skipped, and
/// only `.rs` files are kept; a file whose real path is outside the folder,
/// or that is no regular file, is listed as skipped (`Boundary`). A file
/// named explicitly is always analysed: the user chose it.
pub fn collect(paths: &[PathBuf], base: &Path) -> (Vec<Input>, Vec<PathError>) {
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    let mut packages = PackageFinder::default();
    // Each file made an input as it is found: a walk of many files does not
    // hold them twice.
    let mut add = |found: Found| {
        let (krate, root) = packages.krate_of(&found.path);
        inputs.push(found.input(base, krate, root.as_ref()));
    };
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
            add(Found {
                path: path.clone(),
                skip: None,
            });
        } else if meta.is_dir() {
            let boundary = Boundary::new(path, "folder");
            walk_rs(path, false, &boundary, &mut add, &mut errors);
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
    (inputs, errors)
}

/// A file a walk found: to read, or to list as skipped, with why.
struct Found {
    path: PathBuf,
    skip: Option<String>,
}

impl Found {
    fn input(self, base: &Path, krate: usize, package_root: Option<&Arc<Path>>) -> Input {
        let display = display_path(&self.path, base);
        let mut input = Input::new(self.path, display, krate);
        input.skip = self.skip;
        input.package_root = package_root.cloned();
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
            return Some(self.outside("it was not read"));
        }
        match std::fs::metadata(&real) {
            Ok(meta) if meta.is_file() => None,
            Ok(meta) => Some(not_regular(meta.file_type())),
            Err(e) => Some(format!("cannot read its metadata ({e}); it was not read")),
        }
    }

    /// Where the link leads is not named: it is the machine's path, not the
    /// checkout's (`/usr/bin/dash`, a runner's home), and CI logs are public.
    fn outside(&self, then: &str) -> String {
        format!(
            "its real path is outside the {} `{}`; {then}",
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

/// Each `.rs` file under `dir`, given to `files` as it is found: honouring
/// `.gitignore` (also outside a git checkout) and `.ignore`, without hidden
/// entries and `target/`; with `own_package`, without nested packages
/// (folders with their own `Cargo.toml`). Files `boundary` refuses, and
/// what is no regular file, come with why.
///
/// The walker follows no link below `dir`, so only `dir` itself and the
/// links met are resolved, not every file: a canonicalize is a system call
/// per component of the path, and a run walks thousands of files.
fn walk_rs(
    dir: &Path,
    own_package: bool,
    boundary: &Boundary,
    files: &mut dyn FnMut(Found),
    errors: &mut Vec<PathError>,
) {
    // A member, or the folder given, that is a link out: its files are not
    // even listed (their names too are another folder's).
    if let Ok(real) = std::fs::canonicalize(dir)
        && !real.starts_with(&boundary.root)
    {
        let skip = boundary.outside("its files were not read");
        files(Found {
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
            let nested_package = own_package && e.path() != root && is_package_dir(e.path());
            !(is_dir && (is_build_dir(e.path()) || nested_package))
        })
        .build();
    for entry in walker {
        match entry {
            Ok(e) if e.path().extension().is_some_and(|x| x == "rs") => {
                if let Some(found) = found(e, boundary) {
                    files(found);
                }
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

/// Groups files into crates: by the nearest folder holding a `Cargo.toml`;
/// outside any package, by the nearest folder that cargo's layout makes a
/// crate root (`layout_root`), else all in one group of loose files.
/// Duplicate registrations are looked for within one crate, not across
/// crates: a folder of crates copied without their manifests is several
/// crates, and a file that may be reported has only its own crate read.
#[derive(Default)]
struct PackageFinder {
    /// The root of each folder met, and of their ancestors: each folder's
    /// files are looked for once.
    by_dir: HashMap<PathBuf, Root>,
    /// Crate numbers: the folder of the crate, `None` for the loose files.
    roots: HashMap<Option<PathBuf>, usize>,
}

/// The crate a folder's files belong to.
#[derive(Clone)]
enum Root {
    /// The folder of the nearest `Cargo.toml` (shared by its inputs).
    Package(Arc<Path>),
    /// No `Cargo.toml` above: the nearest crate root by layout, if any.
    Layout(Option<PathBuf>),
}

impl PackageFinder {
    /// The crate number of a file, and its package's folder if it has one.
    fn krate_of(&mut self, file: &Path) -> (usize, Option<Arc<Path>>) {
        let abs = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
        let dir = abs.parent().unwrap_or(Path::new(""));
        let (root, package) = match self.root_of(dir) {
            Root::Package(root) => (Some(root.to_path_buf()), Some(root)),
            Root::Layout(root) => (root, None),
        };
        let next = self.roots.len();
        (*self.roots.entry(root).or_insert(next), package)
    }

    /// A `Cargo.toml` anywhere above wins over a nearer crate root by layout.
    fn root_of(&mut self, dir: &Path) -> Root {
        if let Some(root) = self.by_dir.get(dir) {
            return root.clone();
        }
        let root = if is_package_dir(dir) {
            Root::Package(Arc::from(dir))
        } else {
            let above = match dir.parent() {
                Some(parent) => self.root_of(parent),
                None => Root::Layout(None),
            };
            match above {
                Root::Layout(outer) => Root::Layout(layout_root(dir).or(outer)),
                package => package,
            }
        };
        self.by_dir.insert(dir.to_path_buf(), root.clone());
        root
    }
}

/// The crate root `dir` is by cargo's layout, for files outside any package:
/// `dir` when it holds `src/lib.rs` or `src/main.rs`, or `lib.rs` or
/// `main.rs` itself (a `src` folder's crate is its parent's, as in a
/// package, so that `src/` and `tests/` are one crate).
fn layout_root(dir: &Path) -> Option<PathBuf> {
    let holds = |folder: &Path| {
        ["lib.rs", "main.rs"]
            .iter()
            .any(|f| folder.join(f).is_file())
    };
    if holds(&dir.join("src")) {
        return Some(dir.to_path_buf());
    }
    if !holds(dir) {
        return None;
    }
    match dir.parent() {
        Some(parent) if dir.file_name() == Some(OsStr::new("src")) => Some(parent.to_path_buf()),
        _ => Some(dir.to_path_buf()),
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

/// The files rustup reads a toolchain override from (the nearest one up from
/// the current folder wins).
const TOOLCHAIN_FILES: [&str; 2] = ["rust-toolchain.toml", "rust-toolchain"];

/// The folders (and files) the analysed code controls, canonical: what is
/// analysed (`analysed`: folders or files), and around it and around the
/// current folder `base` (where cargo and rustup look for their files) the
/// repository (the nearest `.git`), the workspace (cargo looks as far up as
/// the outermost `Cargo.toml`) and the folder of the toolchain file rustup
/// obeys, which may name a toolchain anywhere below it.
pub fn analysed_tree(base: &Path, analysed: &[PathBuf]) -> Vec<PathBuf> {
    let canonical = |p: &Path| {
        p.canonicalize()
            .or_else(|_| std::path::absolute(p))
            .unwrap_or_else(|_| p.to_path_buf())
    };
    let mut tree: Vec<PathBuf> = analysed.iter().map(|p| canonical(p)).collect();
    for start in std::iter::once(canonical(base)).chain(tree.clone()) {
        let dir = match start.parent() {
            Some(parent) if start.is_file() => parent,
            _ => &start,
        };
        let holding = |names: &[&str]| -> Vec<PathBuf> {
            dir.ancestors()
                .filter(|d| names.iter().any(|n| d.join(n).exists()))
                .map(Path::to_path_buf)
                .collect()
        };
        tree.extend(holding(&[".git"]).into_iter().next());
        tree.extend(holding(&["Cargo.toml"]).pop());
        tree.extend(holding(&TOOLCHAIN_FILES).into_iter().next());
    }
    tree
}

/// The folder of `tree` that holds `path`, as given or where its links lead
/// (a link out of the tree is still the tree's choice, and a link into it too).
fn tree_holding<'t>(path: &Path, tree: &'t [PathBuf]) -> Option<&'t PathBuf> {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let via_parent = abs
        .parent()
        .and_then(|p| p.canonicalize().ok())
        .zip(abs.file_name())
        .map(|(p, name)| p.join(name));
    [abs.canonicalize().ok(), via_parent]
        .into_iter()
        .flatten()
        .find_map(|p| tree.iter().find(|root| p.starts_with(root)))
}

/// What to run instead of a cargo the analysed tree chose.
const RUN_DIRECTLY: &str = "help: run the installed `backend-lint check` directly: under \
    `cargo backend-lint` the checkout chooses the cargo (`rust-toolchain.toml`) and the \
    command (`[alias]` in `.cargo/config.toml`)";

/// `$CARGO`, the cargo that started `cargo backend-lint` (or the caller's
/// choice when run directly); refused inside the analysed tree, whose
/// toolchain file made rustup run it.
pub fn cargo_env(tree: &[PathBuf]) -> Result<Option<PathBuf>, String> {
    let Some(cargo) = std::env::var_os("CARGO").filter(|c| !c.is_empty()) else {
        return Ok(None);
    };
    // A bare name, as in a shell: looked up on `PATH`, not in the current folder.
    let cargo = match Path::new(&cargo).components().count() {
        1 => program_on_path(&cargo, tree)?,
        _ => PathBuf::from(cargo),
    };
    match tree_holding(&cargo, tree) {
        Some(root) => Err(format!(
            "the cargo that started this run (`CARGO` is `{}`) is inside the analysed \
             tree `{}`\n{RUN_DIRECTLY}",
            cargo.display(),
            root.display()
        )),
        None => Ok(Some(cargo)),
    }
}

/// A cargo to run, and the toolchain that pins it when it is rustup's proxy.
#[derive(Debug)]
pub struct TrustedCargo {
    pub path: PathBuf,
    pub toolchain: Option<String>,
}

/// The cargo to ask for metadata, never one the analysed tree chooses:
/// `$CARGO` (`cargo_env`), else `cargo` from `PATH`, looked up here and now
/// (a relative entry such as `.`, `bin` or an empty one is the current
/// folder's, which a child's lookup would read after changing folder) and
/// never inside the tree. rustup's proxy obeys the tree's toolchain file, so
/// it is pinned (`pin`).
pub fn trusted_cargo(tree: &[PathBuf]) -> Result<TrustedCargo, String> {
    let path = match cargo_env(tree)? {
        Some(cargo) => cargo,
        None => program_on_path(OsStr::new("cargo"), tree)?,
    };
    pin(path, tree)
}

fn program_on_path(name: &OsStr, tree: &[PathBuf]) -> Result<PathBuf, String> {
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut file = name.to_os_string();
    file.push(std::env::consts::EXE_SUFFIX);
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|dir| cwd.join(dir).join(&file))
        .filter(|candidate| is_executable(candidate))
        .find(|candidate| tree_holding(candidate, tree).is_none())
        .ok_or_else(|| {
            format!(
                "no `{}` on `PATH` outside the analysed tree",
                name.to_string_lossy()
            )
        })
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    path.is_file()
}

/// rustup's proxy (rustup's own binary, linked or copied as `cargo`) would
/// obey the tree's toolchain file: it runs pinned (`pinned_toolchain`).
fn pin(path: PathBuf, tree: &[PathBuf]) -> Result<TrustedCargo, String> {
    let toolchain = if is_rustup(&path) {
        Some(pinned_toolchain(&path, tree)?)
    } else {
        None
    };
    Ok(TrustedCargo { path, toolchain })
}

/// `RUSTUP_TOOLCHAIN`, else rustup's default, asked of the proxy itself
/// (`rustup` need not be on `PATH`); with neither, an error rather than an
/// unpinned proxy.
fn pinned_toolchain(proxy: &Path, tree: &[PathBuf]) -> Result<String, String> {
    let Some(toolchain) = std::env::var("RUSTUP_TOOLCHAIN")
        .ok()
        .filter(|t| !t.is_empty())
    else {
        return rustup_default(proxy).ok_or_else(|| {
            format!(
                "cannot pin the toolchain of rustup's proxy `{}`: `RUSTUP_TOOLCHAIN` is not set \
                 and rustup names no default toolchain\n\
                 help: set `RUSTUP_TOOLCHAIN`, or run `rustup default stable`",
                proxy.display()
            )
        });
    };
    // A toolchain named by its folder (as rustup passes on a toolchain file's
    // `path`) must not be the tree's.
    let by_folder = toolchain.contains(std::path::is_separator);
    if by_folder && tree_holding(Path::new(&toolchain), tree).is_some() {
        return Err(format!(
            "`RUSTUP_TOOLCHAIN` (`{toolchain}`) is inside the analysed tree\n{RUN_DIRECTLY}"
        ));
    }
    Ok(toolchain)
}

/// `program` run as rustup (rustup picks its part from the name it is run
/// under), from a folder no checkout controls, without a toolchain override.
fn as_rustup(program: &Path) -> std::process::Command {
    let mut cmd = std::process::Command::new(program);
    #[cfg(unix)]
    std::os::unix::process::CommandExt::arg0(&mut cmd, "rustup");
    cmd.env("RUSTUP_FORCE_ARG0", "rustup")
        .env_remove("RUSTUP_TOOLCHAIN")
        .current_dir(std::path::Component::RootDir.as_os_str());
    cmd
}

/// Whether `cargo` is rustup's proxy: run as rustup, it says it is rustup
/// (a real cargo ignores the name and prints its own help).
fn is_rustup(cargo: &Path) -> bool {
    as_rustup(cargo)
        .arg("--help")
        .stderr(std::process::Stdio::null())
        .output()
        .is_ok_and(|out| out.stdout.starts_with(b"rustup "))
}

/// rustup's default toolchain, asked of `rustup` (the proxy itself).
fn rustup_default(rustup: &Path) -> Option<String> {
    let out = as_rustup(rustup).arg("default").output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let name = text.split_whitespace().next()?.to_string();
    (out.status.success() && !name.is_empty()).then_some(name)
}

/// The packages `cargo metadata --no-deps --offline` reports for the
/// selection. Runs a cargo the analysed tree does not choose
/// (`trusted_cargo`), which reads manifests only: no build, no build scripts,
/// no network.
pub fn cargo_packages(base: &Path, sel: &Selection, tree: &[PathBuf]) -> Result<Packages, String> {
    let mut cmd = metadata_command(base, sel, tree)?;
    cmd.no_deps().other_options(vec!["--offline".to_string()]);
    packages_from(&run_metadata(cmd)?, sel, base)
}

/// `cargo metadata --offline` for the selection, run by a cargo the
/// analysed tree does not choose (`trusted_cargo`); the caller says
/// whether with dependencies (`run::dep_sources`).
pub(super) fn metadata_command(
    base: &Path,
    sel: &Selection,
    tree: &[PathBuf],
) -> Result<cargo_metadata::MetadataCommand, String> {
    let mut cmd = cargo_metadata::MetadataCommand::new();
    let cargo = trusted_cargo(tree)?;
    // With dependencies, cargo asks rustc about the target, through the
    // `build.rustc` and `build.rustc-wrapper` a checkout's
    // `.cargo/config.toml` may name: the rustc beside the trusted cargo
    // (rustup's proxy, pinned as cargo is), and no wrapper.
    let rustc = (cargo.path).with_file_name(format!("rustc{}", std::env::consts::EXE_SUFFIX));
    cmd.env("RUSTC", rustc)
        .env("RUSTC_WRAPPER", "")
        .env("RUSTC_WORKSPACE_WRAPPER", "");
    cmd.cargo_path(cargo.path);
    if let Some(t) = cargo.toolchain {
        cmd.env("RUSTUP_TOOLCHAIN", t);
    }
    cmd.current_dir(base);
    if let Some(m) = &sel.manifest_path {
        cmd.manifest_path(m);
    }
    Ok(cmd)
}

/// Runs a [`metadata_command`], its error on one line.
pub(super) fn run_metadata(
    cmd: cargo_metadata::MetadataCommand,
) -> Result<cargo_metadata::Metadata, String> {
    cmd.exec()
        .map_err(|e| format!("`cargo metadata` failed: {}", one_line(&e.to_string())))
}

/// The packages `meta` selects, as cargo's flags say.
pub(super) fn packages_from(
    meta: &cargo_metadata::Metadata,
    sel: &Selection,
    base: &Path,
) -> Result<Packages, String> {
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
    let left_out = match sel.workspace {
        true => {
            let roots: Vec<&Path> = (members.iter())
                .filter_map(|p| p.manifest_path.parent())
                .map(|d| d.as_std_path())
                .collect();
            packages_left_out(meta.workspace_root.as_std_path(), &roots)
        }
        false => Vec::new(),
    };
    let chosen = chosen
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
        .collect();
    Ok(Packages { chosen, left_out })
}

/// What `cargo metadata` selected, and the package folders under the
/// workspace root that are no member of it.
pub struct Packages {
    pub chosen: Vec<Package>,
    /// Folders under the workspace root holding a `Cargo.toml` that is no
    /// member's (cargo's `exclude`, or a workspace of its own: candle's
    /// `candle-onnx`): `--workspace` does not check them, and says so.
    pub left_out: Vec<PathBuf>,
}

/// The package folders under `workspace_root` other than `members`, found
/// as member files are (`.gitignore` honoured, no hidden entries, no
/// `target/`, no link followed), sorted.
fn packages_left_out(workspace_root: &Path, members: &[&Path]) -> Vec<PathBuf> {
    let walker = ignore::WalkBuilder::new(workspace_root)
        .hidden(true)
        .require_git(false)
        .filter_entry(|e| !is_build_dir(e.path()))
        .build();
    let mut out: Vec<PathBuf> = walker
        .flatten()
        .filter(|e| e.file_name() == "Cargo.toml" && e.file_type().is_some_and(|t| t.is_file()))
        .filter_map(|e| e.path().parent().map(Path::to_path_buf))
        .filter(|dir| dir != workspace_root && !members.contains(&dir.as_path()))
        .collect();
    out.sort();
    out
}

/// cargo's message on one line, without its excerpts of the manifest
/// (`2 | [x`, `  |   ^`): a manifest may be a link to a file outside the
/// checkout, whose lines must not reach a public CI log.
fn one_line(s: &str) -> String {
    let excerpt = |l: &str| {
        let rest = l.trim_start_matches(|c: char| c.is_ascii_digit());
        rest.trim_start().starts_with('|')
    };
    s.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !excerpt(l))
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
        walk_rs(
            &package.root,
            true,
            &boundary,
            &mut |found| files.push(found),
            &mut errors,
        );
        // Sets, not searches: cargo makes every `tests/*.rs` a target, and
        // a package of 20,000 tests compared each file with each target.
        let mut met: HashSet<PathBuf> = files.iter().map(|f| f.path.clone()).collect();
        let targets: HashSet<&Path> = package.targets.iter().map(PathBuf::as_path).collect();
        for t in &package.targets {
            // A target the walk did not meet: the manifest chose its path
            // (`[lib] path = "../../etc/passwd"`), so it is resolved. One
            // that does not exist is cargo's to report, at build time.
            if !met.contains(t) && t.symlink_metadata().is_ok() {
                met.insert(t.clone());
                files.push(Found {
                    path: t.clone(),
                    skip: boundary.check(t),
                });
            }
        }
        let root: Arc<Path> = Arc::from(package.root.as_path());
        inputs.extend(files.into_iter().map(|found| {
            let target = targets.contains(found.path.as_path());
            let mut input = found.input(base, krate, Some(&root));
            input.target = target;
            input
        }));
    }
    (inputs, errors)
}

/// Whether `dir` is cargo's build folder: a `target` beside a
/// `Cargo.toml`, or one cargo marked (`CACHEDIR.TAG`, `.rustc_info.json`).
/// A module folder of that name (maturin's `src/target/mod.rs`) is read.
fn is_build_dir(dir: &Path) -> bool {
    dir.file_name().is_some_and(|n| n == "target")
        && (dir.parent().is_some_and(is_package_dir)
            || dir.join("CACHEDIR.TAG").is_file()
            || dir.join(".rustc_info.json").is_file())
}

/// Whether `dir` is a package's folder: it holds a `Cargo.toml`. The one
/// test of what a package is, for every search of one.
pub fn is_package_dir(dir: &Path) -> bool {
    dir.join("Cargo.toml").is_file()
}

/// The nearest package folder at or above `dir` (made absolute).
pub fn nearest_package(dir: &Path) -> Option<PathBuf> {
    let abs = std::path::absolute(dir).ok()?;
    abs.ancestors()
        .find(|d| is_package_dir(d))
        .map(Path::to_path_buf)
}

/// The folder of the package a file belongs to: its nearest `Cargo.toml`.
pub fn package_root_of(file: &Path) -> Option<PathBuf> {
    nearest_package(std::path::absolute(file).ok()?.parent()?)
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
    // Each input by its absolute path, found once: a look-up per given file
    // that walked the inputs made 10,000 files given by name (pre-commit
    // on a large change) take minutes.
    let index: HashMap<PathBuf, usize> = (inputs.iter().enumerate())
        .filter_map(|(n, i)| std::path::absolute(&i.path).ok().map(|p| (p, n)))
        .collect();
    // A given file is analysed even when ignored, inside a nested folder, or
    // a link out of its package: the user chose it.
    for f in files {
        let abs = std::path::absolute(f).unwrap_or_else(|_| f.clone());
        if let Some(&n) = index.get(&abs) {
            inputs[n].skip = None;
        } else {
            let root = package_root_of(f);
            let krate = (root.as_ref())
                .and_then(|r| packages.iter().position(|p| &p.root == r))
                .unwrap_or(packages.len() + inputs.len());
            let mut input = Input::new(f.clone(), display_path(f, base), krate);
            input.package_root = root.map(Arc::from);
            inputs.push(input);
        }
    }
    (inputs, errors)
}

/// Where the configuration of a file or folder is looked for: its package
/// root, else the folder itself (the file's folder).
pub fn config_dir(path: &Path) -> PathBuf {
    let dir = if path.is_dir() {
        path.to_path_buf()
    } else {
        path.parent().map(Path::to_path_buf).unwrap_or_default()
    };
    let dir = std::path::absolute(&dir).unwrap_or(dir);
    nearest_package(&dir).unwrap_or(dir)
}

/// Give each input the configuration of its crate, and drop excluded files
/// (returned second, with the configuration that excludes them).
#[allow(clippy::type_complexity)]
pub fn configure(
    mut inputs: Vec<Input>,
    loader: &Loader,
) -> Result<(Vec<Input>, Vec<(Input, Arc<Config>)>), ConfigError> {
    let mut by_dir: HashMap<PathBuf, Arc<Config>> = HashMap::new();
    // In place: a run of many files does not hold their inputs twice.
    // A file not to be opened does not choose a configuration either: a
    // target path out of the checkout would have configuration files looked
    // for, and their errors shown, where it leads. It takes its crate's.
    let skipped: Vec<Input> = inputs.extract_if(.., |i| i.skip.is_some()).collect();
    for input in &mut inputs {
        let parent = input
            .path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        input.config = match by_dir.get(&parent) {
            Some(c) => c.clone(),
            None => {
                let c = loader.for_dir(&config_dir(&input.path))?;
                by_dir.insert(parent, c.clone());
                c
            }
        };
    }
    let mut excluded: Vec<(Input, Arc<Config>)> = inputs
        .extract_if(.., |i| i.config.excludes(&i.path))
        .map(|i| {
            let config = i.config.clone();
            (i, config)
        })
        .collect();
    let mut out = inputs;
    // A crate is analysed with one configuration: that of its first file.
    let mut first: HashMap<usize, Arc<Config>> = HashMap::new();
    for input in &mut out {
        let c = first
            .entry(input.krate)
            .or_insert_with(|| input.config.clone());
        input.config = c.clone();
    }
    for mut input in skipped {
        input.config = first
            .get(&input.krate)
            .cloned()
            .unwrap_or_else(builtin_config);
        if input.config.excludes(&input.path) {
            let config = input.config.clone();
            excluded.push((input, config));
        } else {
            out.push(input);
        }
    }
    Ok((out, excluded))
}

/// The `.rs` files of a dependency's library folder `dir`, as a package's
/// are walked (`.gitignore`, no hidden entries, no `target/`, no nested
/// package), each file whose real path is inside `boundary` (the
/// dependency's own folder, or the workspace for a vendored one): a link
/// out is passed by unread, as is anything no regular file.
pub(super) fn dependency_files(dir: &Path, boundary: &Path) -> Vec<PathBuf> {
    let boundary = Boundary::new(boundary, "dependency");
    let mut files = Vec::new();
    let mut errors = Vec::new();
    walk_rs(
        dir,
        true,
        &boundary,
        &mut |found| {
            if found.skip.is_none() {
                files.push(found.path);
            }
        },
        &mut errors,
    );
    files
}
