//! What a package's `Cargo.toml` says of its dependencies: the one reader
//! of dependency names, for the learning's reach ([`super::deps`]) and the
//! semantic model's crate graph ([`super::model`]).
//!
//! Names are kept as the code spells them (`-` made `_`, as cargo's crate
//! names are): the name the package's code calls a dependency by, and the
//! package it is (a `package = ".."` rename, or the workspace's
//! `[workspace.dependencies]` entry for `x = { workspace = true }`).

use std::path::Path;

/// One dependency of a manifest.
pub(super) struct Dependency {
    /// The name the package's code calls it by (the model's crate graph
    /// reads it, which only tests and benches build yet).
    #[cfg_attr(not(feature = "testing"), allow(dead_code))]
    pub name: String,
    /// The package it is; `None` when a `workspace = true` entry names no
    /// workspace manifest that can be read.
    pub package: Option<String>,
    /// A `[dependencies]` entry (not a dev- or build-dependency), which the
    /// package's own dependents may reach through it.
    pub normal: bool,
}

/// A package's manifest.
pub(super) struct Manifest {
    /// `[package] name`, as a crate name.
    pub name: Option<String>,
    pub dependencies: Vec<Dependency>,
}

/// The manifest in the package folder `root`; `None` when it cannot be read
/// or parsed.
pub(super) fn read(root: &Path) -> Option<Manifest> {
    let table = read_toml(&root.join("Cargo.toml"))?;
    let name = (table.get("package"))
        .and_then(|p| p.get("name"))
        .and_then(|n| n.as_str())
        .map(crate_name);
    let mut workspace: Option<Option<toml::Table>> = None;
    let mut dependencies = Vec::new();
    for (section, normal) in dependency_tables(&table) {
        for (key, value) in section {
            let renamed = value.get("package").and_then(|p| p.as_str());
            let inherited = value.get("workspace").and_then(|w| w.as_bool()) == Some(true);
            let package = match (renamed, inherited) {
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
            dependencies.push(Dependency {
                name: crate_name(key),
                package: package.as_deref().map(crate_name),
                normal,
            });
        }
    }
    Some(Manifest { name, dependencies })
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
/// Whether the package at `root` stands alone: in no workspace (neither
/// its manifest nor one above it has `[workspace]`) and with no `path`
/// dependency, so no other package of the checkout is among its crates
/// (what a crate of a registry copy is). `false` when it cannot be read.
pub(super) fn standalone(root: &Path) -> bool {
    let Some(table) = read_toml(&root.join("Cargo.toml")) else {
        return false;
    };
    let path_dependency = (dependency_tables(&table).into_iter())
        .any(|(section, _)| section.values().any(|v| v.get("path").is_some()));
    !path_dependency && workspace_manifest(root).is_none()
}

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
pub(super) fn crate_name(name: &str) -> String {
    name.replace('-', "_")
}
