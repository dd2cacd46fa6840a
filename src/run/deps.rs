//! Which packages of a run may call into which: by the dependency names
//! their `Cargo.toml`s declare (issue 28). What one package learned of its
//! own functions matters only where they can be called: in that package and
//! in the packages depending on it, directly or through others (a `pub use`
//! passes a function on). A package of a registry copy is no caller of the
//! hundreds of others beside it.
//!
//! Whatever cannot be read is taken as reaching everything: files outside
//! any package, a manifest that does not parse, a dependency taken from a
//! workspace whose manifest is not found. Names are compared with `-` and
//! `_` alike, as cargo's crate names are.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use super::Input;

/// For each package (by crate number) the packages it may call.
pub(super) struct Reach {
    /// `None`: anything (no manifest read); else the crates, itself
    /// included.
    calls: HashMap<usize, Option<HashSet<usize>>>,
    /// Crates with a package name, whose callers are known.
    named: HashSet<usize>,
}

/// What a manifest says: the package's name and those of its dependencies
/// (`None` when they cannot all be known): all of them, and the normal ones
/// alone (a dependency's own dev- and build-dependencies are not its
/// dependents' to call).
struct Manifest {
    name: String,
    deps: Option<HashSet<String>>,
    normal: Option<HashSet<String>>,
}

impl Reach {
    /// Reads each package's manifest once.
    pub fn new(inputs: &[Input]) -> Reach {
        let mut roots: HashMap<usize, Option<&Path>> = HashMap::new();
        for input in inputs {
            (roots.entry(input.krate)).or_insert(input.package_root.as_deref());
        }
        let manifests: HashMap<usize, Manifest> = (roots.iter())
            .filter_map(|(krate, root)| Some((*krate, manifest(root.as_ref()?)?)))
            .collect();
        let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
        for (krate, m) in &manifests {
            by_name.entry(m.name.as_str()).or_default().push(*krate);
        }
        let calls = (roots.keys())
            .map(|&krate| (krate, reached(krate, &manifests, &by_name)))
            .collect();
        Reach {
            calls,
            named: manifests.keys().copied().collect(),
        }
    }

    /// Whether code of `caller` may call a function of `callee`.
    pub fn may_call(&self, caller: usize, callee: usize) -> bool {
        if caller == callee || !self.named.contains(&callee) {
            return true;
        }
        match self.calls.get(&caller) {
            Some(Some(calls)) => calls.contains(&callee),
            _ => true,
        }
    }
}

/// The crates `krate` depends on, through others too, itself included;
/// `None` when one of them (or it) has dependencies that cannot be known.
fn reached(
    krate: usize,
    manifests: &HashMap<usize, Manifest>,
    by_name: &HashMap<&str, Vec<usize>>,
) -> Option<HashSet<usize>> {
    let mut seen = HashSet::from([krate]);
    let mut todo = vec![krate];
    while let Some(k) = todo.pop() {
        let m = manifests.get(&k)?;
        let deps = match k == krate {
            true => m.deps.as_ref()?,
            false => m.normal.as_ref()?,
        };
        for dep in deps {
            for &d in by_name.get(dep.as_str()).into_iter().flatten() {
                if seen.insert(d) {
                    todo.push(d);
                }
            }
        }
    }
    Some(seen)
}

/// The manifest in `root`, `None` when it cannot be read.
fn manifest(root: &Path) -> Option<Manifest> {
    let table = read_toml(&root.join("Cargo.toml"))?;
    let name = table.get("package")?.get("name")?.as_str()?;
    let mut deps = HashSet::new();
    let mut normal = HashSet::new();
    let mut known = true;
    let mut workspace: Option<Option<toml::Table>> = None;
    for (section, is_normal) in dependency_tables(&table) {
        for (key, value) in section {
            let package = value.get("package").and_then(|p| p.as_str());
            let inherited = value.get("workspace").and_then(|w| w.as_bool()) == Some(true);
            let name = match (package, inherited) {
                (Some(p), _) => Some(p.to_string()),
                (None, false) => Some(key.clone()),
                // `x = { workspace = true }`: the workspace may rename it.
                (None, true) => {
                    let ws = workspace.get_or_insert_with(|| workspace_manifest(root));
                    ws.as_ref().map(|ws| {
                        let renamed = (ws.get("workspace"))
                            .and_then(|w| w.get("dependencies"))
                            .and_then(|d| d.get(key))
                            .and_then(|d| d.get("package"))
                            .and_then(|p| p.as_str());
                        renamed.unwrap_or(key).to_string()
                    })
                }
            };
            match name {
                Some(n) if is_normal => {
                    normal.insert(crate_name(&n));
                    deps.insert(crate_name(&n));
                }
                Some(n) => {
                    deps.insert(crate_name(&n));
                }
                None => known = false,
            }
        }
    }
    Some(Manifest {
        name: crate_name(name),
        deps: known.then_some(deps),
        normal: known.then_some(normal),
    })
}

/// Every dependency table of a manifest: normal, dev and build, and those
/// of each `[target.'cfg(..)']`; each with whether it is the normal one.
fn dependency_tables(table: &toml::Table) -> Vec<(&toml::Table, bool)> {
    const KINDS: [&str; 5] = [
        "dependencies",
        "dev-dependencies",
        "build-dependencies",
        "dev_dependencies",
        "build_dependencies",
    ];
    fn of(t: &toml::Table) -> impl Iterator<Item = (&toml::Table, bool)> {
        (KINDS.iter()).filter_map(|k| Some((t.get(*k)?.as_table()?, *k == "dependencies")))
    }
    let mut out: Vec<(&toml::Table, bool)> = of(table).collect();
    if let Some(targets) = table.get("target").and_then(|t| t.as_table()) {
        for target in targets.values().filter_map(|t| t.as_table()) {
            out.extend(of(target));
        }
    }
    out
}

/// The nearest manifest above `root` (or `root`'s own) with a
/// `[workspace]` table.
fn workspace_manifest(root: &Path) -> Option<toml::Table> {
    (root.ancestors())
        .filter_map(|dir| read_toml(&dir.join("Cargo.toml")))
        .find(|t| t.contains_key("workspace"))
}

fn read_toml(path: &Path) -> Option<toml::Table> {
    let text = std::fs::read_to_string(path).ok()?;
    text.parse::<toml::Table>().ok()
}

/// A crate name as cargo compares them.
fn crate_name(name: &str) -> String {
    name.replace('-', "_")
}
