//! The semantic model of a workspace, loaded from disk: its packages as
//! discovery finds them (`cargo metadata`), their files read, and the
//! dependency names of each `Cargo.toml`. The crate pass builds the model
//! of a crate when a question needs it ([`lazy`]); tests and benches load a
//! whole workspace ([`load`], feature `testing`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::manifest;
use crate::run::MAX_FILE_BYTES;
use crate::run::discover::{self, Package, Selection};
use crate::semantic::{CrateInput, Model};

/// The model of every member of the workspace at `workspace_root`: per
/// package its library, and each other target (binaries, tests, examples,
/// benches, build script) as a crate of its own that depends on it.
#[cfg(feature = "testing")]
pub fn load(workspace_root: &Path) -> Result<Model, String> {
    Ok(Model::build(crate_inputs(workspace_root)?))
}

/// What [`load`] builds the model from.
#[cfg(feature = "testing")]
pub fn crate_inputs(workspace_root: &Path) -> Result<Vec<CrateInput>, String> {
    crate_inputs_of(workspace_root, None, None)
}

/// The model the crate pass asks of a crate of the run (its files as the
/// run names them, in its package at `package_root`), built on the first
/// question: that package and the workspace packages it depends on, as
/// [`load`] reads them; one crate of `files` when cargo does not know them
/// (a folder without a manifest of its own).
/// `package_root` is `None` outside any package.
pub fn lazy(package_root: Option<Arc<Path>>, files: Vec<PathBuf>) -> crate::semantic::Lazy {
    lazy_given(package_root, files, Arc::default())
}

/// Cargo's answers for the workspaces of the models built in one pass over
/// many packages (`backend-lint config` builds every package's): the
/// members of one workspace share one `cargo metadata`, not one each.
#[derive(Default)]
pub struct Workspaces(std::sync::Mutex<Vec<Arc<Vec<Package>>>>);

impl Workspaces {
    /// The members of the workspace one of whose members is at `root`, if
    /// cargo was asked already.
    fn of(&self, root: &Path) -> Option<Arc<Vec<Package>>> {
        let known = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let root = std::fs::canonicalize(root).ok()?;
        (known.iter())
            .find(|ws| {
                ws.iter()
                    .any(|p| std::fs::canonicalize(&p.root).is_ok_and(|r| r == root))
            })
            .cloned()
    }

    fn keep(&self, members: Arc<Vec<Package>>) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(members);
    }
}

/// [`lazy`], asking cargo once per workspace of `workspaces`.
pub fn lazy_in(
    package_root: Option<Arc<Path>>,
    files: Vec<PathBuf>,
    workspaces: Arc<Workspaces>,
) -> crate::semantic::Lazy {
    let root = package_root.clone();
    crate::semantic::Lazy::new(move || {
        let given = Given::default();
        Some(package_model_in(
            package_root.as_deref(),
            &files,
            &given,
            Some(&workspaces),
        ))
    })
    .with_others(move || root.as_deref().is_some_and(|r| !manifest::standalone(r)))
}

/// Texts that stand for files on disk (an editor's unsaved buffers), by
/// the path the run names them.
pub type Given = Arc<HashMap<PathBuf, Arc<str>>>;

/// [`lazy`], with the files of `given` read from there rather than disk.
pub fn lazy_given(
    package_root: Option<Arc<Path>>,
    files: Vec<PathBuf>,
    given: Given,
) -> crate::semantic::Lazy {
    let root = package_root.clone();
    crate::semantic::Lazy::new(move || Some(package_model(package_root.as_deref(), &files, &given)))
        .with_others(move || root.as_deref().is_some_and(|r| !manifest::standalone(r)))
}

/// The model `old` of the same files with the texts of `changed` (the
/// language server's next run after an edit), built on the first question:
/// `old` itself, its texts and item trees replaced, when no changed file's
/// items changed (an edit inside a fn body); else `old`'s crates and files
/// with the new texts, only their item trees made again and the def maps
/// built anew ([`Model::rebuilt`]). The manifests are not read: a change of
/// one makes the server forget its models.
pub fn lazy_patched(
    old: Model,
    changed: Vec<(PathBuf, Arc<str>)>,
    package_root: Option<Arc<Path>>,
) -> crate::semantic::Lazy {
    let root = package_root.clone();
    let old = std::sync::Mutex::new(Some(old));
    crate::semantic::Lazy::new(move || {
        let kept = old.lock().unwrap_or_else(|e| e.into_inner()).take()?;
        Some(patched(kept, &changed))
    })
    .with_others(move || root.as_deref().is_some_and(|r| !manifest::standalone(r)))
}

/// `model` with the texts of `changed`: its def maps kept when the item
/// tree of none of them changes but for positions, else built again.
fn patched(model: Model, changed: &[(PathBuf, Arc<str>)]) -> Model {
    use crate::semantic::item_tree::ItemTree;
    let trees: Vec<(PathBuf, Arc<str>, Arc<ItemTree>)> = (changed.iter())
        .map(|(path, text)| {
            let tree = ItemTree::parse_skimmed(text, crate::prefilter::for_item_tree);
            proc_macro2::extra::invalidate_current_thread_spans();
            (path.clone(), text.clone(), Arc::new(tree))
        })
        .collect();
    let same = trees.iter().all(|(path, _, tree)| {
        model
            .files_of(path)
            .next()
            .is_none_or(|first| same_items(&model.files[first as usize].tree, tree))
    });
    match same {
        true => model.replaced(trees),
        false => model.rebuilt(trees),
    }
}

/// Whether two item trees of a file declare the same items, where they
/// are apart: every item, scope and declared type the same but for its
/// byte ranges. The ranges the def map keeps (where a `macro_rules!` and
/// a `mod` stand: a macro's textual scope) must be the same too.
fn same_items(
    a: &crate::semantic::item_tree::ItemTree,
    b: &crate::semantic::item_tree::ItemTree,
) -> bool {
    use crate::semantic::item_tree::ItemKind;
    if a.items.len() != b.items.len() || a.scopes.len() != b.scopes.len() || a.error != b.error {
        return false;
    }
    let placed = |k: &ItemKind| matches!(k, ItemKind::MacroRules { .. } | ItemKind::Mod { .. });
    let same_places = (a.items.iter().zip(&b.items))
        .all(|(x, y)| !placed(&x.kind) || !placed(&y.kind) || x.range == y.range);
    same_places
        && without_ranges(&format!("{:?}{:?}", a.items, a.scopes))
            == without_ranges(&format!("{:?}{:?}", b.items, b.scopes))
}

/// A `Debug` text with each byte range (`12..34`) left out.
fn without_ranges(debug: &str) -> String {
    let bytes = debug.as_bytes();
    let mut out = String::with_capacity(debug.len());
    let mut i = 0;
    while i < bytes.len() {
        let digits = |from: usize| {
            (bytes[from..].iter())
                .take_while(|b| b.is_ascii_digit())
                .count()
        };
        let start = i;
        let n = digits(i);
        if n > 0 && bytes[i + n..].starts_with(b"..") {
            let m = digits(i + n + 2);
            if m > 0 {
                out.push_str("..");
                i += n + 2 + m;
                continue;
            }
        }
        // Not a range: the digits (or one character) as they are.
        let step = n.max(debug[start..].chars().next().map_or(1, char::len_utf8));
        out.push_str(&debug[start..start + step]);
        i += step;
    }
    out
}

fn package_model(package_root: Option<&Path>, files: &[PathBuf], given: &Given) -> Model {
    package_model_in(package_root, files, given, None)
}

fn package_model_in(
    package_root: Option<&Path>,
    files: &[PathBuf],
    given: &Given,
    workspaces: Option<&Workspaces>,
) -> Model {
    // A package in no workspace, with no path dependency, is its own
    // crates: no `cargo metadata` is run to find the others.
    let Some(package_root) = package_root.filter(|r| !manifest::standalone(r)) else {
        return Model::build_skimming(
            vec![one_crate(files, given)],
            crate::prefilter::for_item_tree,
        );
    };
    // The model names the files the run analyses as the run does.
    let run_name: HashMap<PathBuf, &PathBuf> = (files.iter())
        .filter_map(|p| Some((std::fs::canonicalize(p).ok()?, p)))
        .collect();
    let renamed = |p: &mut PathBuf| {
        if let Some(name) = std::fs::canonicalize(&*p)
            .ok()
            .and_then(|c| run_name.get(&c))
        {
            *p = (*name).clone();
        }
    };
    // Cargo runs in the package folder: the path it is given is absolute.
    let root = std::path::absolute(package_root).unwrap_or_else(|_| package_root.to_path_buf());
    let ours = |t: &Path| std::fs::canonicalize(t).is_ok_and(|c| run_name.contains_key(&c));
    let mut crates = crate_inputs_of(&root, Some((&root, &ours)), workspaces).unwrap_or_default();
    for c in &mut crates {
        renamed(&mut c.root_file);
        for (p, text) in &mut c.files {
            renamed(p);
            if let Some(given) = given.get(p) {
                *text = given.clone();
            }
        }
    }
    let ours: std::collections::HashSet<&PathBuf> = files.iter().collect();
    let known = (crates.iter()).any(|c| ours.contains(&c.root_file));
    if !known {
        crates = vec![one_crate(files, given)];
    }
    Model::build_skimming(crates, crate::prefilter::for_item_tree)
}

/// The files of a crate cargo does not know, its root a `lib.rs` or
/// `main.rs` among them (else the first).
fn one_crate(files: &[PathBuf], given: &Given) -> CrateInput {
    let named = |n: &str| files.iter().find(|p| p.file_name().is_some_and(|f| f == n));
    let root = (named("lib.rs").or_else(|| named("main.rs")))
        .or(files.first())
        .cloned()
        .unwrap_or_default();
    CrateInput {
        name: "crate".to_string(),
        root_file: root,
        files: (files.iter())
            .filter_map(|p| Some((p.clone(), given.get(p).cloned().or_else(|| read(p))?)))
            .collect(),
        ..CrateInput::default()
    }
}

/// [`crate_inputs`], of the package at `only` and the packages of the
/// workspace it depends on when given (the other members are not read).
/// Whether a file is one the run analyses.
type Ours<'a> = dyn Fn(&Path) -> bool + 'a;

/// With `only`, nothing when none of the package's targets is a file
/// `only` accepts (the run's files are not the package's crates).
fn crate_inputs_of(
    workspace_root: &Path,
    only: Option<(&Path, &Ours)>,
    workspaces: Option<&Workspaces>,
) -> Result<Vec<CrateInput>, String> {
    let mut packages = match workspaces.and_then(|w| w.of(workspace_root)) {
        Some(members) => members.to_vec(),
        None => {
            let tree = discover::analysed_tree(workspace_root, &[workspace_root.to_path_buf()]);
            let selection = Selection {
                manifest_path: Some(workspace_root.join("Cargo.toml")),
                workspace: true,
                ..Selection::default()
            };
            let chosen = discover::cargo_packages(workspace_root, &selection, &tree)?.chosen;
            if let Some(w) = workspaces {
                w.keep(Arc::new(chosen.clone()));
            }
            chosen
        }
    };
    if let Some((only, ours)) = only {
        packages = with_dependencies(packages, only);
        let lib = |p: &Package| p.root.join("src").join("lib.rs");
        let targets = |p: &Package| {
            p.targets
                .iter()
                .cloned()
                .chain([lib(p)])
                .collect::<Vec<_>>()
        };
        if !packages
            .first()
            .is_some_and(|p| targets(p).iter().any(|t| ours(t)))
        {
            return Ok(Vec::new());
        }
    }
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
    let lib_name = |p: &Package| manifest::crate_name(&p.name);
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
            lib_of.insert(lib_name(package), crates.len());
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
    for (p, package) in packages.iter().enumerate() {
        let mut deps = Vec::new();
        let mut external = Vec::new();
        for (name, real) in dependencies(&package.root) {
            match lib_of.get(&real) {
                Some(&k) => deps.push((name, k)),
                None => external.push(name),
            }
        }
        if let Some(&k) = lib_of.get(&lib_name(package)) {
            crates[k].deps = deps.clone();
            crates[k].external_deps = external.clone();
        }
        for target in &targets_of[p] {
            let mut own = deps.clone();
            if let Some(&k) = lib_of.get(&lib_name(package)) {
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

/// The dependencies a package's manifest names, as the code calls them:
/// (name, package) for each, both as crate names; a `workspace = true`
/// entry whose workspace manifest cannot be read keeps its own name.
fn dependencies(root: &Path) -> Vec<(String, String)> {
    let Some(manifest) = manifest::read(root) else {
        return Vec::new();
    };
    let mut out: Vec<(String, String)> = (manifest.dependencies.into_iter())
        .map(|d| {
            let package = d.package.unwrap_or_else(|| d.name.clone());
            (d.name, package)
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The package at `root` (first) and the packages among `packages` it
/// depends on, directly or not; none when no package is at `root`.
fn with_dependencies(packages: Vec<Package>, root: &Path) -> Vec<Package> {
    let canonical = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let root = canonical(root);
    let Some(start) = packages.iter().position(|p| canonical(&p.root) == root) else {
        return Vec::new();
    };
    let by_name: HashMap<String, usize> = (packages.iter().enumerate())
        .map(|(i, p)| (manifest::crate_name(&p.name), i))
        .collect();
    let mut keep = vec![false; packages.len()];
    let mut todo = vec![start];
    while let Some(i) = todo.pop() {
        if std::mem::replace(&mut keep[i], true) {
            continue;
        }
        for (_, real) in dependencies(&packages[i].root) {
            todo.extend(by_name.get(&real).copied());
        }
    }
    // The package itself first.
    let mut kept: Vec<Package> = Vec::new();
    for (i, (p, k)) in packages.into_iter().zip(keep).enumerate() {
        match (k, i == start) {
            (true, true) => kept.insert(0, p),
            (true, false) => kept.push(p),
            _ => {}
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::semantic::item_tree::ItemTree;

    const FILE: &str = "macro_rules! m { () => {} }\n\
                        mod inner;\n\
                        pub fn f() -> u32 { 1 }\n\
                        pub struct S { x: u32 }\n";

    fn same(a: &str, b: &str) -> bool {
        same_items(&ItemTree::parse(a), &ItemTree::parse(b))
    }

    #[test]
    fn an_edit_inside_a_body_keeps_the_items() {
        assert!(same(FILE, &FILE.replace("{ 1 }", "{ let a = 2;\n a + 1 }")));
        assert!(same(FILE, FILE));
    }

    #[test]
    fn an_item_a_name_a_type_or_a_macro_moved_changes_them() {
        assert!(!same(FILE, &format!("{FILE}pub fn g() {{}}\n")));
        assert!(!same(FILE, &FILE.replace("fn f", "fn h")));
        assert!(!same(FILE, &FILE.replace("x: u32", "x: u64")));
        assert!(!same(FILE, &format!("\n{FILE}")));
        assert!(!same(FILE, "pub fn f(("));
    }

    #[test]
    fn ranges_are_left_out_of_a_debug_text_and_nothing_else() {
        assert_eq!(
            without_ranges("a: 12..345, b: Some(3), c: \"é1..\""),
            "a: .., b: Some(3), c: \"é1..\""
        );
    }

    /// A model patched with a body edit, or with an item added, has the new
    /// text and positions, and answers as a model built from that text.
    #[test]
    fn a_patched_model_is_the_model_of_the_new_text() {
        let text = "pub fn a() -> u32 { 1 }\npub fn b() -> u32 { a() }\n";
        let input = |text: &str| CrateInput {
            name: "c".into(),
            root_file: PathBuf::from("lib.rs"),
            files: vec![(PathBuf::from("lib.rs"), Arc::from(text))],
            ..CrateInput::default()
        };
        let body_edit = "pub fn a() -> u32 { 0 + 1 }\npub fn b() -> u32 { a() }\n";
        let item_added = format!("{text}pub fn c() -> u32 {{ b() }}\n");
        for new_text in [body_edit, &item_added] {
            let old = Model::build(vec![input(text)]);
            let new_text: Arc<str> = Arc::from(new_text);
            let patched = patched(old, &[(PathBuf::from("lib.rs"), new_text.clone())]);
            let built = Model::build(vec![input(&new_text)]);
            assert_eq!(&*patched.files[0].text, &*new_text);
            assert_eq!(patched.references(), built.references());
            assert!(!built.references().is_empty());
        }
    }
}
