//! The dependencies the workspace calls (issue 29): read to learn what
//! their code teaches (functions that reject a second key), never reported
//! on. `cargo metadata --offline --locked` with dependencies, run by the
//! same pinned cargo as the workspace's (`discover::metadata_command`),
//! says which packages the selected members depend on, transitively, and
//! where cargo keeps each one's source.
//!
//! Which sources are read, by where their real path is (cargo's `source`
//! names the registry even for a vendored copy, so the place decides):
//! - inside the workspace: a vendored directory (cargo's directory source)
//!   or a path dependency in the checkout: read, and its summary cached
//!   under its files' sizes and times (`local_fingerprint`);
//! - under `$CARGO_HOME/registry/src`: cargo's unpacked, checksum-verified
//!   copy of a registry package: read, and its summary cached;
//! - under `$CARGO_HOME/git/checkouts`: a git dependency at one commit:
//!   read, and its summary cached;
//! - anywhere else (a path dependency out of the checkout, a `[patch]` or a
//!   source replacement leading out of it, a vendor folder that is a link
//!   out): never read, listed as skipped.
//!
//! `--locked` is always passed: without it cargo writes `Cargo.lock` when it
//! is missing or stale, and backend-lint never changes the checkout. When
//! cargo cannot resolve the dependencies offline (a source never fetched, a
//! lockfile missing or out of date), the workspace is read alone and one
//! note says to run `cargo fetch`: nothing is ever downloaded.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cargo_metadata::{DependencyKind, Metadata, PackageId, TargetKind};

use super::Input;
use super::discover::{self, Packages, Selection};
use super::manifest::crate_name;
use super::metadata_cache;
use super::summary_cache::{Summary, SummaryCache, fnv1a};
use crate::config::Config;

/// Where a dependency's source comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SourceKind {
    Registry,
    Git,
    Vendored,
}

/// A dependency whose library is read (or whose summary is cached).
#[derive(Debug, Clone)]
pub struct Dependency {
    /// The package's name, as `Cargo.toml` spells it.
    pub name: String,
    pub version: String,
    /// The library's crate name (`crate::` of its item paths).
    pub crate_name: String,
    /// The package's folder (real path).
    pub root: PathBuf,
    /// The library's root file, and the folder walked for its modules.
    pub lib_root: PathBuf,
    pub lib_dir: PathBuf,
    /// No file whose real path is outside is opened: the package's folder,
    /// or the workspace for a vendored one.
    pub boundary: PathBuf,
    /// The packages its library calls (normal dependencies), as crate names.
    pub normal_deps: Vec<String>,
    /// What its summary is a pure function of (name, version, checksum or
    /// commit, and those of its own dependencies), when it is one:
    /// registry and git packages whose dependencies are such too.
    pub key: Option<String>,
    /// Its summary, when the cache had it: then no file of it is read.
    pub summary: Option<Arc<Summary>>,
}

impl Dependency {
    /// How its files are shown: `name-version/path`, as cargo names the
    /// folder, never the machine's path to it.
    pub fn display(&self, file: &Path) -> String {
        let rel = file.strip_prefix(&self.root).unwrap_or(file);
        let rel = rel.to_string_lossy().replace('\\', "/");
        format!("{}-{}/{rel}", self.name, self.version)
    }

    /// The module path of the library's file `file` (`crate::a::b` for
    /// `src/a/b.rs` or `src/a/b/mod.rs`); inline `mod` blocks are not
    /// seen.
    pub fn module_path(&self, file: &Path) -> String {
        let mut path = vec![self.crate_name.clone()];
        if file != self.lib_root
            && let Ok(rel) = file.strip_prefix(&self.lib_dir)
        {
            let parts: Vec<String> = (rel.components())
                .map(|c| {
                    c.as_os_str()
                        .to_string_lossy()
                        .trim_end_matches(".rs")
                        .to_string()
                })
                .collect();
            let n = parts.len();
            for (at, part) in parts.into_iter().enumerate() {
                if !(at + 1 == n && part == "mod") {
                    path.push(part);
                }
            }
        }
        path.join("::")
    }
}

/// What `cargo metadata` said of the dependencies.
#[derive(Debug, Default)]
pub struct DepSources {
    pub read: Vec<Arc<Dependency>>,
    /// `name version`, and why it was not read.
    pub skipped: Vec<(String, String)>,
    /// Why no dependency was read, or some could not be: "run `cargo fetch`".
    pub note: Option<String>,
}

/// The selected packages, and the dependencies they call: `cargo metadata`
/// with dependencies; when it cannot resolve them offline, the packages
/// alone (`discover::cargo_packages`) and a note.
pub fn load(
    base: &Path,
    sel: &Selection,
    tree: &[PathBuf],
    cache: Option<&SummaryCache>,
) -> Result<(Packages, DepSources), String> {
    load_within(base, sel, tree, cache, None)
}

/// The dependencies of the workspace members walked whole in `dirs`
/// (`check .`, `check crates/app`): those whose folder is one of them or
/// inside one. A folder inside a package (`check src/lints`, a fixture
/// folder) learns from none: it may be no part of what the package builds.
/// `None` when no cargo workspace is around them (the walk reads the
/// folders alone, as before).
pub fn load_around(
    dirs: &[PathBuf],
    tree: &[PathBuf],
    cache: Option<&SummaryCache>,
) -> Option<DepSources> {
    let dirs: Vec<PathBuf> = dirs.iter().filter_map(|d| d.canonicalize().ok()).collect();
    let first = dirs.first()?;
    discover::nearest_package(first)?;
    // No package walked whole from its folder, nor from the folder holding
    // it (`check crates`): no `cargo metadata` to run (`check src`).
    let holds_package = |d: &PathBuf| {
        discover::is_package_dir(d)
            || (std::fs::read_dir(d).into_iter().flatten().flatten())
                .any(|e| discover::is_package_dir(&e.path()))
    };
    if !dirs.iter().any(holds_package) {
        return None;
    }
    let sel = Selection {
        manifest_path: None,
        workspace: true,
        packages: Vec::new(),
        exclude: Vec::new(),
    };
    let (_, deps) = load_within(first, &sel, tree, cache, Some(&dirs)).ok()?;
    Some(deps)
}

fn load_within(
    base: &Path,
    sel: &Selection,
    tree: &[PathBuf],
    cache: Option<&SummaryCache>,
    within: Option<&[PathBuf]>,
) -> Result<(Packages, DepSources), String> {
    // The host's dependencies only (`windows-sys` and its kin are a third
    // of candle's dependency source elsewhere); a cargo older than
    // `host-tuple` (1.84?) is asked for every platform's.
    let metadata = |host_only: bool| {
        let mut cmd = discover::metadata_command(base, sel, tree)?;
        let mut options = vec!["--offline", "--locked"];
        if host_only {
            options.extend(["--filter-platform", "host-tuple"]);
        }
        cmd.other_options(options.into_iter().map(String::from).collect::<Vec<_>>());
        discover::run_metadata(cmd)
    };
    // Cargo's answer of an earlier run, when nothing it rests on changed
    // (`metadata_cache`); else cargo's, kept for the next run.
    let keys = match cache {
        Some(_) => {
            let cargo = discover::trusted_cargo(tree)?;
            let key = |host_only| {
                metadata_cache::key(&cargo, base, sel.manifest_path.as_deref(), host_only)
            };
            Some([key(true), key(false)])
        }
        None => None,
    };
    let kept = (cache.zip(keys.as_ref()))
        .and_then(|(c, keys)| keys.iter().find_map(|k| metadata_cache::load(c, k)));
    let meta = match kept {
        Some(meta) => Ok(meta),
        None => {
            let fresh = match metadata(true) {
                Err(e) if e.contains("host-tuple") => metadata(false).map(|m| (m, 1)),
                meta => meta.map(|m| (m, 0)),
            };
            if let (Some(c), Some(keys), Ok((meta, k))) = (cache, &keys, &fresh) {
                metadata_cache::store(c, &keys[*k], meta, tree);
            }
            fresh.map(|(m, _)| m)
        }
    };
    let meta = match meta {
        Ok(meta) => meta,
        // cargo's message is long and names cargo's folders; the command
        // that shows it is named instead.
        Err(_) => {
            let packages = discover::cargo_packages(base, sel, tree)?;
            let note = "the dependencies were not read, so nothing was learned from them: \
                        cargo cannot resolve them offline as `Cargo.lock` pins them (a source \
                        not fetched, or `Cargo.lock` missing or out of date; `cargo metadata \
                        --offline --locked` says which); run `cargo fetch` (backend-lint \
                        downloads nothing)"
                .to_string();
            let deps = DepSources {
                note: Some(note),
                ..DepSources::default()
            };
            return Ok((packages, deps));
        }
    };
    let mut packages = discover::packages_from(&meta, sel, base)?;
    if let Some(dirs) = within {
        let walked = |root: &Path| {
            let root = canonical(root);
            dirs.iter().any(|d| root.starts_with(d))
        };
        packages.chosen.retain(|p| walked(&p.root));
    }
    let deps = classify(&meta, &packages);
    Ok((packages, deps))
}

/// The packages the chosen members depend on (all their dependencies; of
/// those, the normal ones, transitively), each read, cached or skipped.
fn classify(meta: &Metadata, packages: &Packages) -> DepSources {
    let mut out = DepSources::default();
    let Some(resolve) = &meta.resolve else {
        return out;
    };
    let by_id: HashMap<&PackageId, &cargo_metadata::Package> =
        meta.packages.iter().map(|p| (&p.id, p)).collect();
    let nodes: HashMap<&PackageId, &cargo_metadata::Node> =
        resolve.nodes.iter().map(|n| (&n.id, n)).collect();
    let chosen: HashSet<&PackageId> = (meta.packages.iter())
        .filter(|p| (packages.chosen.iter()).any(|c| Some(c.root.as_path()) == manifest_dir(p)))
        .map(|p| &p.id)
        .collect();
    let normal_of = |id: &PackageId| -> Vec<&PackageId> {
        (nodes.get(id).into_iter())
            .flat_map(|n| n.deps.iter())
            .filter(|d| (d.dep_kinds.iter()).any(|k| k.kind == DependencyKind::Normal))
            .map(|d| &d.pkg)
            .collect()
    };
    // Breadth first, so that the order is the graph's and stable.
    let mut seen: HashSet<&PackageId> = chosen.clone();
    let mut order: Vec<&PackageId> = Vec::new();
    let mut todo: std::collections::VecDeque<&PackageId> = chosen.iter().copied().collect();
    let mut first: Vec<&PackageId> = todo.iter().copied().collect();
    first.sort();
    todo = first.into_iter().collect();
    while let Some(id) = todo.pop_front() {
        let next: Vec<&PackageId> = match chosen.contains(id) {
            true => (nodes.get(id).into_iter())
                .flat_map(|n| n.deps.iter())
                .map(|d| &d.pkg)
                .collect(),
            // What a proc macro calls runs in the compiler: not the
            // workspace's to call.
            false if by_id.get(id).is_none_or(|p| library(p).is_none()) => Vec::new(),
            false => normal_of(id),
        };
        for dep in next {
            if seen.insert(dep) {
                order.push(dep);
                todo.push_back(dep);
            }
        }
    }
    let workspace = canonical(meta.workspace_root.as_std_path());
    let home = cargo_home();
    let registry = home
        .as_ref()
        .map(|h| canonical(&h.join("registry").join("src")));
    let git = home
        .as_ref()
        .map(|h| canonical(&h.join("git").join("checkouts")));
    let checksums = lock_checksums(meta.workspace_root.as_std_path());
    let mut missing = Vec::new();
    let mut own_keys: HashMap<&PackageId, Option<String>> = HashMap::new();
    let mut read: Vec<(&PackageId, Dependency)> = Vec::new();
    for id in order {
        let Some(p) = by_id.get(id) else { continue };
        let shown = format!("{} {}", p.name, p.version);
        // A proc macro runs in the compiler, a package without a library
        // is no one's callee: nothing to learn, whatever its source (its
        // dependents' keys hold its name and version only).
        let Some(lib) = library(p) else {
            own_keys.insert(
                id,
                Some(format!("teaches-nothing {} {}", p.name, p.version)),
            );
            continue;
        };
        let Some(dir) = manifest_dir(p) else { continue };
        let Ok(root) = dir.canonicalize() else {
            missing.push(shown);
            continue;
        };
        let kind = if root.starts_with(&workspace) {
            SourceKind::Vendored
        } else if registry.as_ref().is_some_and(|r| root.starts_with(r)) {
            SourceKind::Registry
        } else if git.as_ref().is_some_and(|g| root.starts_with(g)) {
            SourceKind::Git
        } else {
            let why = match &p.source {
                None => "a path dependency outside the checkout; it was not read",
                Some(_) => {
                    "its source is outside the checkout and cargo's folders (a `[patch]`, a link or \
                     a source replacement); it was not read"
                }
            };
            out.skipped.push((shown, why.to_string()));
            own_keys.insert(id, None);
            continue;
        };
        let lib_root = lib.src_path.as_std_path().to_path_buf();
        let lib_root = lib_root.canonicalize().unwrap_or(lib_root);
        if !lib_root.is_file() {
            missing.push(shown);
            own_keys.insert(id, None);
            continue;
        }
        let source = p
            .source
            .as_ref()
            .map(|s| s.repr.clone())
            .unwrap_or_default();
        let own_key = match kind {
            SourceKind::Registry => (checksums.get(&(p.name.to_string(), p.version.to_string())))
                .map(|sum| format!("registry {} {} {source} {sum}", p.name, p.version)),
            // The commit is in the source (`git+url?rev=x#commit`); a
            // checkout never changes under one.
            SourceKind::Git => (source.rsplit_once('#'))
                .filter(|(_, commit)| commit.len() >= 40)
                .map(|_| format!("git {} {} {source}", p.name, p.version)),
            // The checkout's own (a vendored copy, a path dependency in the
            // checkout): it may change under its version, so its key holds
            // each file's size and modification time, as cargo's own
            // fingerprints of local packages do.
            SourceKind::Vendored => local_fingerprint(&root, lib_root.parent())
                .map(|f| format!("local {} {} {} {f:016x}", p.name, p.version, root.display())),
        };
        own_keys.insert(id, own_key);
        let boundary = match kind {
            SourceKind::Vendored => workspace.clone(),
            _ => root.clone(),
        };
        let normal_deps = (normal_of(id).into_iter())
            .filter_map(|d| by_id.get(d))
            .map(|d| crate_name(&d.name))
            .collect();
        read.push((
            id,
            Dependency {
                name: p.name.to_string(),
                version: p.version.to_string(),
                crate_name: crate_name(&lib.name),
                lib_dir: lib_root.parent().map(Path::to_path_buf).unwrap_or_default(),
                lib_root,
                root,
                boundary,
                normal_deps,
                key: None,
                summary: None,
            },
        ));
    }
    // A summary depends on what the package's own dependencies teach: its
    // key holds theirs (none when one of them has none).
    let mut keys: HashMap<&PackageId, Option<String>> = HashMap::new();
    for (id, mut dep) in read {
        dep.key = full_key(id, &own_keys, &normal_of, &mut keys, 0);
        out.read.push(Arc::new(dep));
    }
    if !missing.is_empty() {
        out.note = Some(format!(
            "the source of {} is missing, so nothing was learned from it; run `cargo fetch` \
             (backend-lint downloads nothing)",
            missing.join(", ")
        ));
    }
    out
}

/// A hash of the package's manifest and, under its library's folder, of
/// each file's path, size and modification time (links are not followed:
/// what they lead to is not read either); `None` when a time cannot be
/// read, or past 100,000 entries.
fn local_fingerprint(root: &Path, lib_dir: Option<&Path>) -> Option<u64> {
    let stamp = |path: &Path, meta: &std::fs::Metadata| -> Option<String> {
        let time = meta.modified().ok()?;
        let since = time.duration_since(std::time::UNIX_EPOCH).ok()?;
        Some(format!(
            "{} {} {}\n",
            path.display(),
            meta.len(),
            since.as_nanos()
        ))
    };
    let manifest = root.join("Cargo.toml");
    let mut listing = stamp(&manifest, &std::fs::symlink_metadata(&manifest).ok()?)?;
    let mut todo = vec![lib_dir?.to_path_buf()];
    let mut entries = Vec::new();
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).ok()?.flatten() {
            let meta = entry.metadata().ok()?;
            let path = entry.path();
            if meta.is_dir() {
                todo.push(path);
            } else if meta.is_file() {
                entries.push(stamp(&path, &meta)?);
            }
            if entries.len() + todo.len() > 100_000 {
                return None;
            }
        }
    }
    entries.sort();
    entries.iter().for_each(|e| listing.push_str(e));
    Some(fnv1a(listing.as_bytes()))
}

/// `id`'s own key followed by its normal dependencies' (each its first
/// line and a hash of the whole), sorted.
fn full_key<'a>(
    id: &'a PackageId,
    own: &HashMap<&'a PackageId, Option<String>>,
    normal_of: &impl Fn(&'a PackageId) -> Vec<&'a PackageId>,
    memo: &mut HashMap<&'a PackageId, Option<String>>,
    depth: usize,
) -> Option<String> {
    if let Some(k) = memo.get(id) {
        return k.clone();
    }
    // Normal dependencies make no cycle; a bound all the same.
    if depth > 256 {
        return None;
    }
    let mut key = own.get(id).cloned().flatten()?;
    // A package with no library: what it calls is nobody's to learn from.
    if key.starts_with("teaches-nothing ") {
        return Some(key);
    }
    // Each dependency by its own line and a hash of its key: a key grows
    // with the package's direct dependencies, not with the whole graph
    // below it (a diamond would repeat it).
    let mut parts = Vec::new();
    for dep in normal_of(id) {
        let theirs = full_key(dep, own, normal_of, memo, depth + 1)?;
        let first = theirs.lines().next().unwrap_or_default();
        parts.push(format!("{first} {:016x}", fnv1a(theirs.as_bytes())));
    }
    parts.sort();
    for part in parts {
        key.push_str("\n+ ");
        key.push_str(&part);
    }
    memo.insert(id, Some(key.clone()));
    Some(key)
}

/// A package's library target, if it has one a caller links with (no proc
/// macro).
fn library(p: &cargo_metadata::Package) -> Option<&cargo_metadata::Target> {
    (p.targets.iter()).find(|t| {
        (t.kind.iter()).any(|k| matches!(k, TargetKind::Lib | TargetKind::RLib | TargetKind::DyLib))
    })
}

fn manifest_dir(p: &cargo_metadata::Package) -> Option<&Path> {
    p.manifest_path.parent().map(|d| d.as_std_path())
}

fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// `$CARGO_HOME`, else `~/.cargo`.
fn cargo_home() -> Option<PathBuf> {
    match std::env::var_os("CARGO_HOME").filter(|h| !h.is_empty()) {
        Some(home) => Some(PathBuf::from(home)),
        None => std::env::home_dir().map(|h| h.join(".cargo")),
    }
}

/// The checksums `Cargo.lock` pins, by name and version. cargo checked them
/// against the registry's when it resolved offline and `--locked`.
fn lock_checksums(workspace_root: &Path) -> HashMap<(String, String), String> {
    let Ok(text) = std::fs::read_to_string(workspace_root.join("Cargo.lock")) else {
        return HashMap::new();
    };
    let Ok(table) = text.parse::<toml::Table>() else {
        return HashMap::new();
    };
    let packages = table.get("package").and_then(|p| p.as_array());
    (packages.into_iter().flatten())
        .filter_map(|p| {
            let field = |k: &str| p.get(k).and_then(|v| v.as_str()).map(str::to_string);
            Some(((field("name")?, field("version")?), field("checksum")?))
        })
        .collect()
}

/// The files of a dependency to read: its library's folder.
pub fn files(dep: &Dependency) -> Vec<PathBuf> {
    let mut files = discover::dependency_files(&dep.lib_dir, &dep.boundary);
    if !files.contains(&dep.lib_root) {
        files.push(dep.lib_root.clone());
    }
    files
}

/// The inputs of the dependencies, learning only, with `config` (the
/// workspace's) and crate numbers from `next_krate` on: the files of each
/// one read, or, when `cache` has its summary, one input standing for it,
/// never opened. A summary is kept under the dependency's key and the
/// configuration it is learned with.
pub fn inputs(
    deps: &DepSources,
    config: &Arc<Config>,
    next_krate: usize,
    cache: Option<&SummaryCache>,
) -> Vec<Input> {
    let fingerprint = format!("config {:016x}", fnv1a(config.to_toml().as_bytes()));
    let mut out = Vec::new();
    for (n, dep) in deps.read.iter().enumerate() {
        let krate = next_krate + n;
        let mut dep = (**dep).clone();
        dep.key = dep.key.map(|k| format!("{k}\n{fingerprint}"));
        dep.summary = (cache.zip(dep.key.as_deref()))
            .and_then(|(cache, key)| cache.load(key))
            .map(Arc::new);
        let dep = Arc::new(dep);
        let paths = match dep.summary {
            Some(_) => vec![dep.root.clone()],
            None => files(&dep),
        };
        for path in paths {
            let display = dep.display(&path);
            let mut input = Input::new(path, display, krate);
            input.config = config.clone();
            input.dependency = Some(dep.clone());
            if dep.summary.is_some() {
                input.skip = Some("its summary is cached".to_string());
            }
            out.push(input);
        }
    }
    out
}
