//! The module tree of a crate, rebuilt from `mod` declarations and file
//! paths as rustc does, and name resolution of string constants over it.
//!
//! Resolution is deliberately modest: `crate::`/`self::`/`super::` paths,
//! `use` aliases and globs, nested modules. When the structure does not
//! answer (a path through a type, an external crate), a name defined once in
//! the crate (or always with the same value) still resolves; a name with
//! several different values resolves to nothing rather than to a guess.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::model::cfg::Cfg;
use crate::model::facts::{ConstValue, FileFacts, ScopeSegment, StrExpr};

/// A module: its root file (several roots: lib, bins, tests) and path.
type ModKey = (usize, Vec<ScopeSegment>);

/// What a constant's name stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Const {
    Str(String),
    /// Defined as another constant: its path, from the module it is in.
    Alias(ModKey, Vec<String>),
    /// Not a string: an enum value, a number...
    NotStr,
    /// Declared with different values (cfg variants, several modules).
    Ambiguous,
}

#[derive(Default)]
struct Module {
    consts: HashMap<String, Const>,
    /// (alias, target) of `use` items; alias `None` for a glob.
    uses: Vec<(Option<String>, Vec<String>)>,
}

/// Where a file sits in its crate.
#[derive(Debug, Clone, Default)]
pub struct FilePlace {
    pub root: usize,
    pub module: Vec<ScopeSegment>,
    /// `cfg`s of the `mod` declarations that lead to the file.
    pub cfgs: Vec<Cfg>,
    /// Declared under `#[cfg(test)]` (directly or through a parent), or in
    /// an integration test (`tests/`).
    pub test: bool,
    /// Which program the file's root is compiled into.
    pub program: Program,
}

/// What a crate root is compiled into: a registration runs in the process of
/// its program only.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Program {
    /// A library (or a file outside any cargo layout): linked into every
    /// binary of the package.
    #[default]
    Library,
    /// A binary of its own: `src/main.rs`, `src/bin/*`, `tests/*`,
    /// `examples/*`, `benches/*`.
    Binary,
    /// A build script: runs at build time, with nothing else.
    BuildScript,
}

impl Program {
    /// The program of a crate root, from where cargo's layout puts it.
    fn of_root(path: &Path, package_root: Option<&Path>) -> Program {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let dirs: Vec<&str> = path
            .parent()
            .into_iter()
            .flat_map(|p| p.iter().rev().take(2))
            .filter_map(|c| c.to_str())
            .collect();
        let parent = dirs.first().copied().unwrap_or("");
        let grandparent = dirs.get(1).copied().unwrap_or("");
        let package_root = package_root.is_some_and(|root| path.parent() == Some(root));
        match (name, parent, grandparent) {
            ("build.rs", _, _) if package_root => Program::BuildScript,
            ("main.rs", "src", _) => Program::Binary,
            (_, "bin", "src") => Program::Binary,
            ("main.rs", _, "bin" | "tests" | "examples" | "benches") => Program::Binary,
            (_, "tests" | "examples" | "benches", _) => Program::Binary,
            _ => Program::Library,
        }
    }

    /// Whether code of these two roots can run in one process.
    pub fn shares_process(a: (usize, Program), b: (usize, Program)) -> bool {
        if a.0 == b.0 {
            return true;
        }
        !matches!(
            (a.1, b.1),
            (Program::BuildScript, _)
                | (_, Program::BuildScript)
                | (Program::Binary, Program::Binary)
        )
    }
}

pub struct ModuleTree {
    pub places: Vec<FilePlace>,
    modules: HashMap<ModKey, Module>,
    /// Crate-wide fallback by name.
    by_name: HashMap<String, Const>,
    /// Names given by `use .. as NAME` anywhere in the crate.
    aliases: HashSet<String>,
    /// Names of the crate's modules, types and `use`s of its own items:
    /// first segments of paths that may lead to one of its constants.
    local_names: HashSet<String>,
    /// Answers already given: (root, module, path) -> value. Lints ask for
    /// the same names again and again.
    cache: Cache,
}

enum Found {
    Value(String),
    /// Ambiguous, or not a string: resolve nothing.
    Ambiguous,
    Nothing,
}

/// Resolution steps for one name, at most: far beyond any real module graph.
const MAX_STEPS: usize = 1024;

type Visited = HashSet<(Vec<ScopeSegment>, Vec<String>)>;

/// (module, path) -> the value it resolves to.
type Cache = RefCell<HashMap<(ModKey, Vec<String>), Option<String>>>;

impl ModuleTree {
    /// `files[i]` is the path and facts of the crate's i-th file.
    pub fn build(files: &[(&Path, &FileFacts)], package_root: Option<&Path>) -> ModuleTree {
        let index: HashMap<PathBuf, usize> = files
            .iter()
            .enumerate()
            .map(|(i, (p, _))| (normalize(p), i))
            .collect();
        // parent -> (child, declaration)
        let mut parent_of: Vec<Option<(usize, usize)>> = vec![None; files.len()];
        for (i, (path, facts)) in files.iter().enumerate() {
            for (d, decl) in facts.mod_decls.iter().enumerate() {
                for candidate in child_candidates(path, &facts.scopes[decl.scope as usize], decl) {
                    if let Some(&j) = index.get(&normalize(&candidate))
                        && j != i
                        && parent_of[j].is_none()
                    {
                        parent_of[j] = Some((i, d));
                        break;
                    }
                }
            }
        }
        let mut places: Vec<Option<FilePlace>> = vec![None; files.len()];
        let mut roots = 0;
        for i in 0..files.len() {
            resolve_place(
                i,
                files,
                &parent_of,
                &mut places,
                &mut roots,
                0,
                package_root,
            );
        }
        let places: Vec<FilePlace> = places.into_iter().map(Option::unwrap_or_default).collect();

        let mut modules: HashMap<ModKey, Module> = HashMap::new();
        let mut by_name: HashMap<String, Const> = HashMap::new();
        let mut aliases: HashSet<String> = HashSet::new();
        let mut local_names: HashSet<String> = HashSet::new();
        for ((_, facts), place) in files.iter().zip(&places) {
            // One allocation a key (a crate of many function bodies makes
            // many scopes).
            let key_of = |scope: u32| -> ModKey {
                let inner = &facts.scopes[scope as usize];
                let mut m = Vec::with_capacity(place.module.len() + inner.len());
                m.extend(place.module.iter().chain(inner).cloned());
                (place.root, m)
            };
            // A function body's scope is a module only if something is
            // declared there (below): looked up without one, it answers as
            // an empty one does. (Every body's key hashed and kept was 28%
            // of a keystroke of the language server on torsh.)
            for (scope, segments) in facts.scopes.iter().enumerate() {
                if !segments.last().is_some_and(ScopeSegment::is_block) {
                    modules.entry(key_of(scope as u32)).or_default();
                }
            }
            for c in &facts.consts {
                let value = match &c.value {
                    ConstValue::Str(v) => Const::Str(v.clone()),
                    ConstValue::Alias(path) => Const::Alias(key_of(c.scope), path.clone()),
                    ConstValue::Other => Const::NotStr,
                };
                let module = modules.entry(key_of(c.scope)).or_default();
                merge(module.consts.entry(c.name.clone()), &value);
                merge(by_name.entry(c.name.clone()), &value);
            }
            local_names.extend(facts.types.iter().cloned());
            // A function body's scope is named by no path.
            let names = facts
                .scopes
                .iter()
                .flatten()
                .filter_map(ScopeSegment::module);
            local_names.extend(names.map(str::to_string));
            local_names.extend(facts.mod_decls.iter().map(|d| d.name.clone()));
            for u in &facts.uses {
                // `use burn_cuda::Backend;` brings in an outside name: not ours.
                if let Some(alias) = &u.alias
                    && u.target
                        .first()
                        .is_some_and(|f| matches!(f.as_str(), "crate" | "self" | "super"))
                {
                    local_names.insert(alias.clone());
                }
                if let Some(alias) = &u.alias
                    && u.target.last() != Some(alias)
                {
                    aliases.insert(alias.clone());
                }
                modules
                    .entry(key_of(u.scope))
                    .or_default()
                    .uses
                    .push((u.alias.clone(), u.target.clone()));
            }
        }
        ModuleTree {
            places,
            modules,
            by_name,
            aliases,
            local_names,
            cache: RefCell::default(),
        }
    }

    /// What [`Self::build`] reads of a file, but for which facts are
    /// where: two files giving the same text give the same tree (with the
    /// same paths, in the same order). The modules (function bodies with
    /// nothing declared in them left out), the constants, types, `mod`s
    /// and `use`s, each with its module path.
    pub fn inputs_of(facts: &FileFacts) -> String {
        use std::fmt::Write;
        let at = |scope: u32| facts.scopes.get(scope as usize);
        let mut out = String::new();
        for scope in facts
            .scopes
            .iter()
            .filter(|s| !s.last().is_some_and(ScopeSegment::is_block))
        {
            let _ = write!(out, "{scope:?};");
        }
        for c in &facts.consts {
            let _ = write!(out, "{:?}{:?}{:?};", at(c.scope), c.name, c.value);
        }
        let _ = write!(out, "{:?}", facts.types);
        for d in &facts.mod_decls {
            let (name, path, cfgs) = (&d.name, &d.path_attr, &d.cfgs);
            let _ = write!(out, "{:?}{name:?}{path:?}{cfgs:?};", at(d.scope));
        }
        for u in &facts.uses {
            let _ = write!(out, "{:?}{:?}{:?};", at(u.scope), u.alias, u.target);
        }
        out
    }

    /// The value of a string expression written in file `file` (index in the crate).
    pub fn resolve<'s>(&'s self, file: usize, facts: &FileFacts, e: &'s StrExpr) -> Option<String> {
        let (segments, scope) = match e {
            StrExpr::Lit(s) => return Some(s.clone()),
            StrExpr::Path { segments, scope } => (segments, *scope),
            StrExpr::Item { segments, scope } => {
                let path = StrExpr::Path {
                    segments: segments.clone(),
                    scope: *scope,
                };
                return self.resolve(file, facts, &path).or_else(|| {
                    let item = self.item_path(file, facts, segments, *scope)?;
                    // `0:plugins::LogPlugin`: shown without its crate root.
                    Some(match item.split_once(':') {
                        Some((_, path)) => path.trim_start_matches("::").to_string(),
                        None => item,
                    })
                });
            }
        };
        // No item of that name anywhere in the crate: nothing to look for
        // (most paths are enum variants, types, functions).
        let last = segments.last()?;
        if !self.by_name.contains_key(last) && !self.aliases.contains(last) {
            return None;
        }
        let place = &self.places[file];
        let module = self.module_at(file, facts, scope);
        let key = ((place.root, module), segments.clone());
        if let Some(known) = self.cache.borrow().get(&key) {
            return known.clone();
        }
        let mut visited = HashSet::new();
        let value = match self.find(place.root, &key.0.1, segments, &mut visited) {
            Found::Value(v) => Some(v),
            Found::Ambiguous => None,
            // By name only when the path may lead into this crate: not
            // `burn_cuda::Backend::NAME`, which names another crate's item.
            Found::Nothing if self.may_be_ours(segments) => match self.by_name.get(last) {
                Some(c) => match self.value_of(c, &mut visited) {
                    Found::Value(v) => Some(v),
                    _ => None,
                },
                None => None,
            },
            Found::Nothing => None,
        };
        self.cache.borrow_mut().insert(key, value.clone());
        value
    }

    /// The module path of an inline module or body `scope` of file `file`.
    fn module_at(&self, file: usize, facts: &FileFacts, scope: u32) -> Vec<ScopeSegment> {
        let mut module = self.places[file].module.clone();
        module.extend(
            facts
                .scopes
                .get(scope as usize)
                .into_iter()
                .flatten()
                .cloned(),
        );
        module
    }

    /// Which item a path written in file `file` (in its inline module or
    /// body `scope`) names, as `root:module::..::name`: through the module
    /// tree, `use`s (renamed, re-exported) and `crate::`/`self::`/`super::`.
    /// A name no `use` brings in is the module's own item (a lowercase first
    /// segment of a longer path, another crate's); `None` when a glob import
    /// of the module may bring it in, as which item is then not known.
    pub fn item_path(
        &self,
        file: usize,
        facts: &FileFacts,
        segments: &[String],
        scope: u32,
    ) -> Option<String> {
        let place = &self.places[file];
        let module = self.module_at(file, facts, scope);
        let mut steps = 0;
        let path = self.item_from(place.root, &module, segments, &mut steps)?;
        Some(format!("{}:{}", place.root, path.join("::")))
    }

    /// [`Self::item_path`] from module `base`.
    fn item_from(
        &self,
        root: usize,
        base: &[ScopeSegment],
        segments: &[String],
        steps: &mut usize,
    ) -> Option<Vec<String>> {
        *steps += 1;
        if *steps > MAX_STEPS {
            return None;
        }
        // `::other::f()`: another crate's.
        if segments.first().is_some_and(String::is_empty) {
            return Some(segments.to_vec());
        }
        let relative =
            !(segments.first()).is_some_and(|s| matches!(s.as_str(), "crate" | "self" | "super"));
        let (mut module, mut rest) = absolute(base, segments)?;
        loop {
            let (first, tail) = rest.split_first()?;
            let mut child = module.clone();
            child.push(ScopeSegment::Module(first.clone()));
            if !tail.is_empty() && self.modules.contains_key(&(root, child.clone())) {
                (module, rest) = (child, tail.to_vec());
                continue;
            }
            let here = self.modules.get(&(root, module.clone()));
            let uses = here.map(|m| m.uses.as_slice()).unwrap_or_default();
            if let Some((_, target)) =
                (uses.iter()).find(|(alias, _)| alias.as_deref() == Some(first))
            {
                let mut path = target.clone();
                path.extend(tail.iter().cloned());
                return self.item_from(root, &module, &path, steps);
            }
            // In a function body, a name not declared there is the module's.
            if relative && module.last().is_some_and(ScopeSegment::is_block) {
                module.pop();
                continue;
            }
            if uses.iter().any(|(alias, _)| alias.is_none()) {
                return None;
            }
            let named = |m: &[ScopeSegment]| -> Vec<String> {
                (m.iter())
                    .map(|s| match s {
                        ScopeSegment::Module(n) => n.clone(),
                        ScopeSegment::Block { name, id } => format!("{{{name}#{id}}}"),
                    })
                    .collect()
            };
            // `other::registry()`: a path from another crate (a type of
            // this module is capitalised).
            if !tail.is_empty() && !first.starts_with(|c: char| c.is_ascii_uppercase()) {
                let mut path = vec![String::new()];
                path.extend(rest.iter().cloned());
                return Some(path);
            }
            let mut path = named(&module);
            path.extend(rest.iter().cloned());
            return Some(path);
        }
    }

    /// A path that starts at this crate: one segment, `crate`/`self`/
    /// `super`/`Self`, or a module, alias or type the crate declares.
    fn may_be_ours(&self, segments: &[String]) -> bool {
        let Some(first) = segments.first() else {
            return false;
        };
        segments.len() == 1
            || matches!(first.as_str(), "crate" | "self" | "super" | "Self")
            || self.local_names.contains(first)
    }

    /// `visited` holds every (module, path) asked already in this resolution:
    /// `use super::*` / `use child::*` cycles and chains of globs are walked
    /// once each, never exponentially.
    fn find(
        &self,
        root: usize,
        base: &[ScopeSegment],
        segments: &[String],
        visited: &mut Visited,
    ) -> Found {
        let relative = !segments
            .first()
            .is_some_and(|s| matches!(s.as_str(), "crate" | "self" | "super"));
        let Some((module, rest)) = absolute(base, segments) else {
            return Found::Nothing;
        };
        if visited.len() > MAX_STEPS || !visited.insert((module.clone(), rest.clone())) {
            return Found::Nothing;
        }
        match self.find_in(root, &module, &rest, visited) {
            // In a function body, a name not declared there is the module's.
            Found::Nothing if relative && module.last().is_some_and(ScopeSegment::is_block) => {
                self.find(root, &module[..module.len() - 1], segments, visited)
            }
            found => found,
        }
    }

    /// What a constant stands for: an alias is followed to the constant it
    /// names (`visited` ends a cycle, `const A: &str = B; const B: &str = A;`,
    /// and bounds a chain); one that leads nowhere known is no string.
    fn value_of(&self, c: &Const, visited: &mut Visited) -> Found {
        match c {
            Const::Str(v) => Found::Value(v.clone()),
            Const::Alias((root, module), path) => match self.find(*root, module, path, visited) {
                Found::Value(v) => Found::Value(v),
                _ => Found::Ambiguous,
            },
            Const::NotStr | Const::Ambiguous => Found::Ambiguous,
        }
    }

    fn find_in(
        &self,
        root: usize,
        base: &[ScopeSegment],
        rest: &[String],
        visited: &mut Visited,
    ) -> Found {
        let base = base.to_vec();
        let Some((first, tail)) = rest.split_first() else {
            return Found::Nothing;
        };
        let Some(module) = self.modules.get(&(root, base.clone())) else {
            return Found::Nothing;
        };
        if tail.is_empty()
            && let Some(c) = module.consts.get(first)
        {
            return self.value_of(c, visited);
        }
        if !tail.is_empty() {
            let mut child = base.clone();
            child.push(ScopeSegment::Module(first.clone()));
            if self.modules.contains_key(&(root, child.clone())) {
                return self.find(root, &child, tail, visited);
            }
        }
        // Through a `use`: `use crate::names::CUDA;`, `use super::names as n;`.
        for (alias, target) in &module.uses {
            if alias.as_deref() == Some(first.as_str()) {
                let mut path = target.clone();
                path.extend(tail.iter().cloned());
                match self.find(root, &base, &path, visited) {
                    Found::Nothing => {}
                    found => return found,
                }
            }
        }
        // Through a glob: `use crate::names::*;`.
        for (alias, target) in &module.uses {
            if alias.is_none() {
                let mut path = target.clone();
                path.extend(rest.iter().cloned());
                match self.find(root, &base, &path, visited) {
                    Found::Nothing => {}
                    found => return found,
                }
            }
        }
        Found::Nothing
    }
}

/// Resolve leading `crate`/`self`/`super` against `base`: (module, rest).
fn absolute(
    base: &[ScopeSegment],
    segments: &[String],
) -> Option<(Vec<ScopeSegment>, Vec<String>)> {
    let mut module = base.to_vec();
    if segments
        .first()
        .is_some_and(|s| matches!(s.as_str(), "crate" | "self" | "super"))
    {
        // `self` in a function body is the module around it.
        while module.last().is_some_and(ScopeSegment::is_block) {
            module.pop();
        }
    }
    let mut rest = segments;
    loop {
        match rest.first().map(String::as_str) {
            Some("crate") => module.clear(),
            Some("self") => {}
            Some("super") => {
                module.pop()?;
            }
            _ => break,
        }
        rest = &rest[1..];
    }
    Some((module, rest.to_vec()))
}

fn merge(entry: std::collections::hash_map::Entry<'_, String, Const>, value: &Const) {
    entry
        .and_modify(|v| {
            if v != value {
                *v = Const::Ambiguous;
            }
        })
        .or_insert_with(|| value.clone());
}

/// Where rustc looks for the file of `mod name;` declared in `parent`.
fn child_candidates(
    parent: &Path,
    inline: &[ScopeSegment],
    decl: &crate::model::facts::ModDecl,
) -> Vec<PathBuf> {
    // In a function body (`fn f() { #[path = "x.rs"] mod x; }`): no folder
    // stands for a body, so no file is looked for; the file, if an input, is
    // a crate root of its own.
    let Some(inline) = inline
        .iter()
        .map(ScopeSegment::module)
        .collect::<Option<Vec<_>>>()
    else {
        return Vec::new();
    };
    let dir = parent.parent().unwrap_or(Path::new(""));
    let stem = parent.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let mod_rs = matches!(stem, "lib" | "main" | "mod");
    let mut base = if mod_rs {
        dir.to_path_buf()
    } else {
        dir.join(stem)
    };
    if let Some(p) = &decl.path_attr {
        let at = if inline.is_empty() {
            dir.to_path_buf()
        } else {
            base.join(inline.join("/"))
        };
        return vec![at.join(p)];
    }
    for seg in inline {
        base.push(seg);
    }
    vec![
        base.join(format!("{}.rs", decl.name)),
        base.join(&decl.name).join("mod.rs"),
    ]
}

fn normalize(p: &Path) -> PathBuf {
    let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

fn resolve_place(
    i: usize,
    files: &[(&Path, &FileFacts)],
    parent_of: &[Option<(usize, usize)>],
    places: &mut Vec<Option<FilePlace>>,
    roots: &mut usize,
    depth: usize,
    package_root: Option<&Path>,
) {
    if places[i].is_some() {
        return;
    }
    let place = match parent_of[i] {
        Some((p, d)) if depth < 64 => {
            resolve_place(p, files, parent_of, places, roots, depth + 1, package_root);
            let parent = places[p].clone().unwrap_or_default();
            let decl = &files[p].1.mod_decls[d];
            let mut module = parent.module.clone();
            module.extend(files[p].1.scopes[decl.scope as usize].iter().cloned());
            module.push(ScopeSegment::Module(decl.name.clone()));
            let mut cfgs = parent.cfgs.clone();
            cfgs.extend(decl.cfgs.iter().cloned());
            FilePlace {
                root: parent.root,
                module,
                test: parent.test || decl.cfgs.iter().any(Cfg::is_test),
                cfgs,
                program: parent.program,
            }
        }
        _ => {
            *roots += 1;
            let path = files[i].0;
            FilePlace {
                root: *roots,
                program: Program::of_root(path, package_root),
                test: is_integration_test(path, package_root),
                ..FilePlace::default()
            }
        }
    };
    places[i] = Some(place);
}

/// Whether the crate root `path` is an integration test: cargo's layout
/// puts those in the package's own `tests/` folder (`tests/it.rs`,
/// `tests/it/main.rs`), and its library and binaries in `src/`. A
/// workspace member that lives in a folder named `tests` (wgpu's test
/// support, `tests/src/lib.rs`) is a library. Elsewhere, or without the
/// package's root, a `tests` folder one or two levels up decides.
fn is_integration_test(path: &Path, package_root: Option<&Path>) -> bool {
    if let Some(root) = package_root
        && let Ok(rel) = normalize(path).strip_prefix(normalize(root))
    {
        let mut parts = rel.iter();
        match (parts.next(), parts.next()) {
            (Some(first), Some(_)) if first == "tests" => return true,
            (Some(first), Some(_)) if first == "src" => return false,
            (Some(_), None) => return false,
            _ => {}
        }
    }
    let dir = |up: usize| path.ancestors().nth(up).and_then(|d| d.file_name());
    dir(1).is_some_and(|d| d == "tests") || dir(2).is_some_and(|d| d == "tests")
}

/// Whether a `mod` declaration of one of `files` leads to `path`.
pub fn is_declared(path: &Path, files: &[(&Path, &FileFacts)]) -> bool {
    let target = normalize(path);
    files.iter().any(|(parent, facts)| {
        facts.mod_decls.iter().any(|decl| {
            child_candidates(parent, &facts.scopes[decl.scope as usize], decl)
                .iter()
                .any(|c| normalize(c) == target)
        })
    })
}

/// Whether cargo's layout makes `path` a target of the package it is in:
/// `src/lib.rs`, `src/main.rs`, `src/bin/*.rs`, `build.rs`, and the files
/// (or `*/main.rs`) directly in `tests/`, `examples/`, `benches/`, `src/bin/`.
pub fn is_layout_root(path: &Path, package_root: &Path) -> bool {
    let abs = normalize(path);
    let Ok(rel) = abs.strip_prefix(normalize(package_root)) else {
        return true;
    };
    let parts: Vec<&str> = rel.iter().filter_map(|c| c.to_str()).collect();
    matches!(
        parts.as_slice(),
        ["src", "lib.rs"]
            | ["src", "main.rs"]
            | ["build.rs"]
            | ["src", "bin", _]
            | ["src", "bin", _, "main.rs"]
            | ["tests" | "examples" | "benches", _]
            | ["tests" | "examples" | "benches", _, "main.rs"]
    )
}
