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

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::path::Path;

use super::Input;

/// For each package (by crate number) the packages it may call.
///
/// Asked of every package of a run for the few that export (a registry
/// copy: a thousand packages, a handful exporting), so what each package
/// reaches is not walked: the packages reaching an exporter are found
/// walking back from it, once per exporter.
pub(super) struct Reach {
    /// Each crate with a manifest: the crates its own dependencies name
    /// (dev- and build-dependencies included), `None` when they cannot
    /// all be known.
    deps: HashMap<usize, Option<Vec<usize>>>,
    /// Each crate's dependents through normal dependencies.
    dependents: HashMap<usize, Vec<usize>>,
    /// The crates through whose normal dependencies a crate whose
    /// dependencies cannot be known is reached (those crates included).
    unknown: HashSet<usize>,
    /// For each callee asked about, the crates reaching it through normal
    /// dependencies (itself included).
    reaching: RefCell<HashMap<usize, HashSet<usize>>>,
    /// Each crate's name as paths name it (`pq_core` for `pq-core`).
    names: HashMap<usize, String>,
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
        Reach::of(manifests)
    }

    /// From the manifests read, by crate number.
    fn of(manifests: HashMap<usize, Manifest>) -> Reach {
        let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
        for (krate, m) in &manifests {
            by_name.entry(m.name.as_str()).or_default().push(*krate);
        }
        let crates = |names: &HashSet<String>| -> Vec<usize> {
            let mut out: Vec<usize> = (names.iter())
                .flat_map(|n| by_name.get(n.as_str()).into_iter().flatten().copied())
                .collect();
            out.sort_unstable();
            out.dedup();
            out
        };
        let mut dependents: HashMap<usize, Vec<usize>> = HashMap::new();
        let mut unknown: Vec<usize> = Vec::new();
        let mut deps = HashMap::new();
        for (&krate, m) in &manifests {
            match &m.normal {
                Some(normal) => {
                    for d in crates(normal) {
                        dependents.entry(d).or_default().push(krate);
                    }
                }
                None => unknown.push(krate),
            }
            deps.insert(krate, m.deps.as_ref().map(crates));
        }
        let unknown = back_from(unknown, &dependents);
        let names = (manifests.iter())
            .map(|(krate, m)| (*krate, m.name.replace('-', "_")))
            .collect();
        Reach {
            deps,
            dependents,
            unknown,
            reaching: RefCell::default(),
            names,
        }
    }

    /// The crate's name as paths name it (`pq_core`), when its manifest
    /// was read.
    pub fn crate_name(&self, krate: usize) -> Option<&str> {
        self.names.get(&krate).map(String::as_str)
    }

    /// Whether code of `caller` may call a function of `callee`: `callee`
    /// is `caller`, or one of its dependencies, directly or through the
    /// normal dependencies of others; or that is not known.
    pub fn may_call(&self, caller: usize, callee: usize) -> bool {
        if caller == callee || !self.deps.contains_key(&callee) {
            return true;
        }
        let Some(Some(deps)) = self.deps.get(&caller) else {
            return true;
        };
        if deps.iter().any(|d| self.unknown.contains(d)) {
            return true;
        }
        let mut reaching = self.reaching.borrow_mut();
        let reaching =
            (reaching.entry(callee)).or_insert_with(|| back_from(vec![callee], &self.dependents));
        deps.iter().any(|d| reaching.contains(d))
    }
}

/// `from`, and the crates depending on one of them through normal
/// dependencies, directly or through others.
fn back_from(from: Vec<usize>, dependents: &HashMap<usize, Vec<usize>>) -> HashSet<usize> {
    let mut seen: HashSet<usize> = from.iter().copied().collect();
    let mut todo = from;
    while let Some(k) = todo.pop() {
        for &d in dependents.get(&k).into_iter().flatten() {
            if seen.insert(d) {
                todo.push(d);
            }
        }
    }
    seen
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

#[cfg(test)]
mod tests {
    use super::{Manifest, Reach};
    use std::collections::{HashMap, HashSet};

    fn manifest(name: &str, normal: Option<&[&str]>, dev: &[&str]) -> Manifest {
        let set = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<HashSet<_>>();
        Manifest {
            name: name.to_string(),
            deps: normal.map(|n| &set(n) | &set(dev)),
            normal: normal.map(set),
        }
    }

    /// Who may call whom: through normal dependencies, the caller's own
    /// dev-dependencies too (not another's), two versions of one name
    /// both, and anything where a manifest on the way cannot be known.
    #[test]
    fn a_package_calls_what_it_depends_on_through_others() {
        // 0 app -> 1 log (dev: 5 tester), 1 log -> 2 core, 3 other (alone),
        // 4 unknown deps, 5 tester -> 4, 6 core again (a second version),
        // 7 -> 1 and 2 (a cycle through 8), 8 -> 7, 9 without a manifest.
        let manifests: HashMap<usize, Manifest> = [
            (0, manifest("app", Some(&["log"]), &[])),
            (1, manifest("log", Some(&["core"]), &["tester"])),
            (2, manifest("core", Some(&[]), &[])),
            (3, manifest("other", Some(&[]), &[])),
            (4, manifest("unknown", None, &[])),
            (5, manifest("tester", Some(&["unknown"]), &[])),
            (6, manifest("core", Some(&[]), &[])),
            (7, manifest("ring", Some(&["log", "ring_b"]), &[])),
            (8, manifest("ring_b", Some(&["ring"]), &[])),
        ]
        .into_iter()
        .collect();
        let reach = Reach::of(manifests);
        let calls = |caller: usize| -> Vec<usize> {
            (0..10)
                .filter(|&callee| reach.may_call(caller, callee))
                .collect()
        };
        assert_eq!(calls(0), [0, 1, 2, 6, 9]);
        // Its dev-dependency `tester` depends on what cannot be known.
        assert_eq!(calls(1), (0..10).collect::<Vec<_>>());
        assert_eq!(calls(2), [2, 9]);
        assert_eq!(calls(3), [3, 9]);
        assert_eq!(calls(4), (0..10).collect::<Vec<_>>());
        assert_eq!(calls(5), (0..10).collect::<Vec<_>>());
        assert_eq!(calls(7), [1, 2, 6, 7, 8, 9]);
        assert_eq!(calls(8), [1, 2, 6, 7, 8, 9]);
        assert_eq!(calls(9), (0..10).collect::<Vec<_>>());
    }
}
