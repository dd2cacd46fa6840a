//! Which packages of a run may call into which: by the dependency names
//! their `Cargo.toml`s declare (issue 28). What one package learned of its
//! own functions matters only where they can be called: in that package and
//! in the packages depending on it, directly or through others (a `pub use`
//! passes a function on). A package of a registry copy is no caller of the
//! hundreds of others beside it.
//!
//! A dependency the workspace calls (issue 29, `dep_sources`) is known by
//! what `cargo metadata` said of it, its manifest not read again: what its
//! code teaches reaches exactly the packages depending on it, directly or
//! through other dependencies.
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
        let mut roots: HashMap<usize, &Input> = HashMap::new();
        for input in inputs {
            roots.entry(input.krate).or_insert(input);
        }
        let manifests: HashMap<usize, Manifest> = (roots.iter())
            .filter_map(|(krate, input)| {
                let manifest = match &input.dependency {
                    Some(dep) => {
                        let deps: HashSet<String> = dep.normal_deps.iter().cloned().collect();
                        Manifest {
                            name: super::manifest::crate_name(&dep.name),
                            deps: Some(deps.clone()),
                            normal: Some(deps),
                        }
                    }
                    None => manifest(input.package_root.as_deref()?)?,
                };
                Some((*krate, manifest))
            })
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

/// The manifest in `root`, `None` when it cannot be read or names no
/// package.
fn manifest(root: &Path) -> Option<Manifest> {
    let read = super::manifest::read(root)?;
    let mut deps = HashSet::new();
    let mut normal = HashSet::new();
    let mut known = true;
    for dep in read.dependencies {
        match dep.package {
            Some(p) => {
                if dep.normal {
                    normal.insert(p.clone());
                }
                deps.insert(p);
            }
            None => known = false,
        }
    }
    Some(Manifest {
        name: read.name?,
        deps: known.then_some(deps),
        normal: known.then_some(normal),
    })
}
