//! The semantic model of a workspace, loaded from disk: its packages as
//! discovery finds them (`cargo metadata`), their files read, and the
//! dependency names of each `Cargo.toml`. Only tests and benches call it
//! (feature `testing`) until the lints query the model.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::run::MAX_FILE_BYTES;
use crate::run::discover::{self, Package, Selection};
use crate::semantic::{CrateInput, Model};

/// The model of every member of the workspace at `workspace_root`: per
/// package its library, and each other target (binaries, tests, examples,
/// benches, build script) as a crate of its own that depends on it.
pub fn load(workspace_root: &Path) -> Result<Model, String> {
    Ok(Model::build(crate_inputs(workspace_root)?))
}

/// What [`load`] builds the model from.
pub fn crate_inputs(workspace_root: &Path) -> Result<Vec<CrateInput>, String> {
    let tree = discover::analysed_tree(workspace_root, &[workspace_root.to_path_buf()]);
    let selection = Selection {
        manifest_path: Some(workspace_root.join("Cargo.toml")),
        workspace: true,
        ..Selection::default()
    };
    let packages = discover::cargo_packages(workspace_root, &selection, &tree)?.chosen;
    let (inputs, _) = discover::package_inputs(&packages, workspace_root);
    let mut files: Vec<Vec<(PathBuf, Arc<str>)>> = vec![Vec::new(); packages.len()];
    for input in inputs.iter().filter(|i| i.skip.is_none()) {
        let Some(text) = read(&input.path) else {
            continue;
        };
        if let Some(list) = files.get_mut(input.krate) {
            list.push((input.path.clone(), text));
        }
    }
    let lib_name = |p: &Package| p.name.replace('-', "_");
    // The crate index of each package's library (or first target).
    let mut crates: Vec<CrateInput> = Vec::new();
    let mut lib_of: HashMap<String, usize> = HashMap::new();
    let mut targets_of: Vec<Vec<PathBuf>> = Vec::new();
    for (p, package) in packages.iter().enumerate() {
        let lib = package.root.join("src").join("lib.rs");
        let mut targets: Vec<PathBuf> = package.targets.clone();
        targets.sort_by_key(|t| *t != lib);
        if targets.is_empty() && lib.is_file() {
            targets.push(lib.clone());
        }
        if let Some(first) = targets.first()
            && *first == lib
        {
            lib_of.insert(package.name.clone(), crates.len());
            crates.push(CrateInput {
                name: lib_name(package),
                root_file: lib.clone(),
                files: files[p].clone(),
                ..CrateInput::default()
            });
            targets.remove(0);
        }
        targets_of.push(targets);
    }
    let workspace_deps = workspace_dependencies(&workspace_root.join("Cargo.toml"));
    for (p, package) in packages.iter().enumerate() {
        let (inside, outside) = dependencies(&package.root.join("Cargo.toml"), &workspace_deps);
        let mut deps = Vec::new();
        let mut external = outside;
        for (name, real) in inside {
            match lib_of.get(&real) {
                Some(&k) => deps.push((name, k)),
                None => external.push(name),
            }
        }
        if let Some(&k) = lib_of.get(&package.name) {
            crates[k].deps = deps.clone();
            crates[k].external_deps = external.clone();
        }
        for target in &targets_of[p] {
            let mut own = deps.clone();
            if let Some(&k) = lib_of.get(&package.name) {
                own.push((lib_name(package), k));
            }
            crates.push(CrateInput {
                name: target
                    .file_stem()
                    .map(|s| s.to_string_lossy().replace('-', "_"))
                    .unwrap_or_default(),
                root_file: target.clone(),
                files: files[p].clone(),
                deps: own,
                external_deps: external.clone(),
            });
        }
    }
    Ok(crates)
}

fn read(path: &Path) -> Option<Arc<str>> {
    let meta = std::fs::metadata(path).ok()?;
    if meta.len() > MAX_FILE_BYTES {
        return None;
    }
    let bytes = std::fs::read(path).ok()?;
    String::from_utf8(bytes).ok().map(Arc::from)
}

/// `[workspace.dependencies]` of the workspace's manifest: name -> package.
fn workspace_dependencies(manifest: &Path) -> HashMap<String, String> {
    let Some(text) = std::fs::read_to_string(manifest).ok() else {
        return HashMap::new();
    };
    let Ok(value) = text.parse::<toml::Table>() else {
        return HashMap::new();
    };
    let deps = value
        .get("workspace")
        .and_then(|w| w.get("dependencies"))
        .and_then(|d| d.as_table());
    deps.into_iter()
        .flatten()
        .map(|(name, spec)| {
            let real = spec.get("package").and_then(|p| p.as_str()).unwrap_or(name);
            (name.clone(), real.to_string())
        })
        .collect()
}

/// The dependencies a manifest names, as the code calls them (dashes made
/// underscores): (name, package) for each, and every name again in the
/// second list when the manifest cannot be read as a package's.
fn dependencies(
    manifest: &Path,
    workspace: &HashMap<String, String>,
) -> (Vec<(String, String)>, Vec<String>) {
    let Some(text) = std::fs::read_to_string(manifest).ok() else {
        return (Vec::new(), Vec::new());
    };
    let Ok(value) = text.parse::<toml::Table>() else {
        return (Vec::new(), Vec::new());
    };
    let mut out = Vec::new();
    let mut tables: Vec<&toml::Table> = Vec::new();
    for key in ["dependencies", "dev-dependencies", "build-dependencies"] {
        if let Some(t) = value.get(key).and_then(|v| v.as_table()) {
            tables.push(t);
        }
    }
    if let Some(targets) = value.get("target").and_then(|v| v.as_table()) {
        for cfg in targets.values().filter_map(|v| v.as_table()) {
            for key in ["dependencies", "dev-dependencies", "build-dependencies"] {
                if let Some(t) = cfg.get(key).and_then(|v| v.as_table()) {
                    tables.push(t);
                }
            }
        }
    }
    for table in tables {
        for (name, spec) in table {
            // `x = { workspace = true }`: the package the workspace's
            // `[workspace.dependencies]` names.
            let inherited = spec.get("workspace").and_then(|w| w.as_bool()) == Some(true);
            let real = match spec.get("package").and_then(|p| p.as_str()) {
                Some(p) => p.to_string(),
                None if inherited => workspace.get(name).cloned().unwrap_or(name.clone()),
                None => name.clone(),
            };
            out.push((name.replace('-', "_"), real));
        }
    }
    out.sort();
    out.dedup();
    (out, Vec::new())
}
