//! Per crate, the module tree and the names visible in each module, as
//! rust-analyzer's `DefMap`: items declared, `use` resolved in a fixed-point
//! loop, globs shadowed by explicit names, `macro_rules!` in textual scope.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::path::{Component, Path, PathBuf};

use super::item_tree::{ImplData, Import, ItemKind, ItemTree, PathRef, TypeRef, Vis};
use super::{CrateInput, FileData, FileIdx, ItemId, Why};
use crate::model::cfg::Cfg;

/// Rounds of import resolution at most. Each round resolves every import it
/// can with what the rounds before found; a chain of re-exports longer than
/// this (no real crate has one) leaves its end unresolved, with
/// [`Why::LimitReached`].
pub const FIXED_POINT_LIMIT: usize = 128;

/// Nesting of `mod` declarations followed at most (a file tree deeper than
/// this is hostile; its deeper modules are left out).
pub const MAX_MODULE_DEPTH: u32 = 4096;

pub type ModuleId = u32;

/// What a name in a module's scope stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Def {
    Module(ModuleId),
    Item(ItemId),
    /// An enum's variant: the enum and the variant's index.
    Variant(ItemId, u32),
    /// Outside the inputs: std, another crate, a builtin type.
    External,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visibility {
    Public,
    /// Visible in this module and its descendants.
    Module(ModuleId),
}

#[derive(Debug, Clone, Copy)]
pub struct Entry {
    pub def: Def,
    pub vis: Visibility,
    /// Brought in by a glob: an explicit name shadows it.
    pub glob: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ns {
    Types,
    Values,
    Macros,
}

#[derive(Debug, Default)]
pub struct ModuleData {
    pub krate: u32,
    pub parent: Option<ModuleId>,
    pub name: String,
    pub depth: u32,
    /// The file and local scope of its items; `None` when its file was not
    /// found among the crate's files.
    pub origin: Option<(FileIdx, u32)>,
    /// The `mod` item that declares it.
    pub decl: Option<ItemId>,
    /// `cfg`s of the `mod` declarations leading to it (recorded, not evaluated).
    pub cfgs: Vec<Cfg>,
    pub children: HashMap<String, ModuleId>,
    pub types: HashMap<String, Entry>,
    pub values: HashMap<String, Entry>,
    pub macros: HashMap<String, Entry>,
    /// A glob import here did not resolve, or is of a crate outside the
    /// inputs: a name not found may come from it.
    pub open_glob: bool,
    /// A macro called where items stand: it may declare names.
    pub open_macro: bool,
    /// `macro_rules!` in textual scope: (name, item, offset in the
    /// module's file from which it is visible). Later entries shadow.
    pub legacy: Vec<(String, ItemId, usize)>,
    /// Where `mod x;` declared here looks for files.
    child_dir: PathBuf,
    /// Every name put in its scope, in order (a name again when an
    /// explicit one replaces a glob's): what a glob of it has applied is a
    /// position in this log.
    log: Vec<(Ns, String)>,
}

impl ModuleData {
    pub fn scope(&self, ns: Ns) -> &HashMap<String, Entry> {
        match ns {
            Ns::Types => &self.types,
            Ns::Values => &self.values,
            Ns::Macros => &self.macros,
        }
    }

    fn scope_mut(&mut self, ns: Ns) -> &mut HashMap<String, Entry> {
        match ns {
            Ns::Types => &mut self.types,
            Ns::Values => &mut self.values,
            Ns::Macros => &mut self.macros,
        }
    }
}

#[derive(Debug, Default)]
pub struct CrateData {
    pub name: String,
    pub root: ModuleId,
    pub deps: HashMap<String, u32>,
    pub externals: HashSet<String>,
    /// Macros of `#[macro_use] extern crate`.
    pub macro_use_prelude: HashMap<String, ItemId>,
}

/// The impls of the inputs, by what they are for.
#[derive(Debug, Default)]
pub struct ImplIndex {
    /// Inherent impls of a struct, enum, union (or trait, `impl dyn Tr`).
    pub inherent: HashMap<ItemId, Vec<ItemId>>,
    /// Trait impls for a type of the inputs.
    pub trait_for: HashMap<ItemId, Vec<ItemId>>,
    /// Every impl of a trait of the inputs.
    pub of_trait: HashMap<ItemId, Vec<ItemId>>,
    /// Trait impls for a type outside the inputs, by its last name (`String`).
    pub for_external: HashMap<String, Vec<ItemId>>,
    /// `impl<T: ..> Trait for T`.
    pub blanket: Vec<ItemId>,
    /// The trait each trait impl implements, when resolved.
    pub trait_of: HashMap<ItemId, ItemId>,
}

/// An import that did not resolve, and why.
#[derive(Debug, Clone)]
pub struct Unresolved {
    pub item: ItemId,
    pub why: Why,
}

#[derive(Debug, Default)]
pub struct DefMap {
    pub modules: Vec<ModuleData>,
    pub crates: Vec<CrateData>,
    /// The module of each (file, local scope).
    pub module_of_scope: HashMap<(FileIdx, u32), ModuleId>,
    pub unresolved: Vec<Unresolved>,
    pub impls: ImplIndex,
    /// The variants of each enum, by index.
    pub variants: HashMap<ItemId, Vec<(u32, String)>>,
    /// Rounds the import loop took.
    pub rounds: usize,
}

/// A path's resolution: what its first `consumed` segments name (the rest,
/// if any, are associated items of a type, for the body's resolution).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathRes {
    pub def: Def,
    pub consumed: usize,
}

/// Names of std's prelude, by namespace: they resolve to `External`.
const PRELUDE_TYPES: &[&str] = &[
    "Option",
    "Result",
    "Vec",
    "String",
    "Box",
    "ToString",
    "ToOwned",
    "Clone",
    "Copy",
    "Default",
    "Drop",
    "Eq",
    "PartialEq",
    "Ord",
    "PartialOrd",
    "Iterator",
    "IntoIterator",
    "Extend",
    "From",
    "Into",
    "TryFrom",
    "TryInto",
    "AsRef",
    "AsMut",
    "Fn",
    "FnMut",
    "FnOnce",
    "Send",
    "Sync",
    "Sized",
    "Unpin",
    "DoubleEndedIterator",
    "ExactSizeIterator",
    "FromIterator",
    "Some",
    "None",
    "Ok",
    "Err",
];
const PRELUDE_VALUES: &[&str] = &["Some", "None", "Ok", "Err", "drop"];
const BUILTIN_TYPES: &[&str] = &[
    "bool", "char", "str", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64",
    "i128", "isize", "f32", "f64",
];
/// Macros called where items stand that declare no name a path can use.
const ITEM_MACROS_WITHOUT_NAMES: &[&str] = &[
    "compile_error",
    "include",
    "assert_impl_all",
    "const_assert",
];

/// Crates every crate may name.
const SYSROOT: &[&str] = &["std", "core", "alloc", "proc_macro", "test"];

/// A path made lexically absolute-free: `.` and `..` folded, nothing asked
/// of the filesystem.
pub fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

struct ImportState {
    module: ModuleId,
    item: ItemId,
    done: bool,
    /// For a glob: its source module, and how much of its log is applied.
    applied: Option<(ModuleId, usize)>,
}

impl DefMap {
    pub fn build(
        crates: &[CrateInput],
        files: &[FileData],
        crate_files: &[Vec<FileIdx>],
    ) -> DefMap {
        let mut map = DefMap::default();
        for (k, c) in crates.iter().enumerate() {
            let mut data = CrateData {
                name: c.name.clone(),
                ..CrateData::default()
            };
            for (name, dep) in &c.deps {
                data.deps.insert(name.clone(), *dep as u32);
            }
            data.externals = c.external_deps.iter().cloned().collect();
            data.root = map.collect_modules(k as u32, c, files, &crate_files[k]);
            map.crates.push(data);
        }
        map.define_items(files);
        map.macro_scopes(files);
        map.resolve_imports(files);
        map.index_impls(files);
        map
    }

    fn new_module(&mut self, m: ModuleData) -> ModuleId {
        let id = self.modules.len() as ModuleId;
        if let Some(o) = m.origin {
            self.module_of_scope.insert(o, id);
        }
        self.modules.push(m);
        id
    }

    /// The module tree of one crate, from its root file through `mod`
    /// declarations (a worklist: deep nesting does not recurse).
    fn collect_modules(
        &mut self,
        krate: u32,
        c: &CrateInput,
        files: &[FileData],
        own: &[FileIdx],
    ) -> ModuleId {
        let by_path: HashMap<PathBuf, FileIdx> = own
            .iter()
            .map(|&f| (normalize(&files[f as usize].path), f))
            .collect();
        let root_path = normalize(&c.root_file);
        let root_file = by_path.get(&root_path).copied();
        let root = self.new_module(ModuleData {
            krate,
            origin: root_file.map(|f| (f, 0)),
            child_dir: root_path
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default(),
            ..ModuleData::default()
        });
        let mut used: HashSet<FileIdx> = root_file.into_iter().collect();
        let mut work = vec![root];
        while let Some(m) = work.pop() {
            let Some((file, scope)) = self.modules[m as usize].origin else {
                continue;
            };
            if self.modules[m as usize].depth >= MAX_MODULE_DEPTH {
                continue;
            }
            let tree = &files[file as usize].tree;
            let file_dir = files[file as usize]
                .path
                .parent()
                .map(normalize)
                .unwrap_or_default();
            for &i in &tree.scopes[scope as usize].items {
                let item = &tree.items[i as usize];
                let ItemKind::Mod {
                    inline, path_attr, ..
                } = &item.kind
                else {
                    continue;
                };
                let parent = &self.modules[m as usize];
                let (origin, child_dir) = match (inline, path_attr) {
                    (Some(s), _) => (Some((file, *s)), parent.child_dir.join(&item.name)),
                    (None, Some(p)) => {
                        // Relative to the file's folder at its top, to the
                        // inline module's folder inside one.
                        let base = if scope == 0 {
                            file_dir.clone()
                        } else {
                            parent.child_dir.clone()
                        };
                        let path = normalize(&base.join(p));
                        let found = by_path.get(&path).copied().filter(|f| !used.contains(f));
                        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
                        (found.map(|f| (f, 0)), dir)
                    }
                    (None, None) => {
                        let flat = normalize(&parent.child_dir.join(format!("{}.rs", item.name)));
                        let nested = normalize(&parent.child_dir.join(&item.name).join("mod.rs"));
                        let dir = parent.child_dir.join(&item.name);
                        let found = [flat, nested]
                            .iter()
                            .find_map(|p| by_path.get(p).copied().filter(|f| !used.contains(f)));
                        (found.map(|f| (f, 0)), dir)
                    }
                };
                if let Some((f, 0)) = origin {
                    used.insert(f);
                }
                let mut cfgs = parent.cfgs.clone();
                cfgs.extend(item.cfgs.iter().cloned());
                let child = ModuleData {
                    krate,
                    parent: Some(m),
                    name: item.name.clone(),
                    depth: parent.depth + 1,
                    origin,
                    decl: Some(ItemId { file, idx: i }),
                    cfgs,
                    child_dir,
                    ..ModuleData::default()
                };
                let name = item.name.clone();
                let id = self.new_module(child);
                // Two `mod x` under exclusive cfgs: the first is kept in
                // the scope, the second still has its items.
                self.modules[m as usize].children.entry(name).or_insert(id);
                work.push(id);
            }
        }
        root
    }

    fn vis(&self, module: ModuleId, v: &Vis) -> Visibility {
        let root = self
            .crates
            .get(self.modules[module as usize].krate as usize);
        let root = root.map(|c| c.root).unwrap_or(0);
        match v {
            Vis::Public => Visibility::Public,
            Vis::Private => Visibility::Module(module),
            Vis::Crate | Vis::In(_) => Visibility::Module(root),
            Vis::Super => Visibility::Module(self.modules[module as usize].parent.unwrap_or(root)),
        }
    }

    /// Whether an entry of visibility `vis` can be named from `from`.
    pub fn visible(&self, vis: Visibility, from: ModuleId) -> bool {
        let Visibility::Module(m) = vis else {
            return true;
        };
        let target = &self.modules[m as usize];
        let mut at = from;
        loop {
            if at == m {
                return true;
            }
            let here = &self.modules[at as usize];
            if here.depth <= target.depth || here.krate != target.krate {
                return false;
            }
            match here.parent {
                Some(p) => at = p,
                None => return false,
            }
        }
    }

    /// Put `entry` under `name`: an explicit name wins over a glob's, the
    /// first of two explicit ones stays. Whether anything changed.
    fn insert(&mut self, m: ModuleId, ns: Ns, name: &str, entry: Entry) -> bool {
        let module = &mut self.modules[m as usize];
        let scope = module.scope_mut(ns);
        let changed = match scope.get(name) {
            None => true,
            Some(old) => old.glob && !entry.glob,
        };
        if changed {
            scope.insert(name.to_string(), entry);
            module.log.push((ns, name.to_string()));
        }
        changed
    }

    fn define_items(&mut self, files: &[FileData]) {
        for m in 0..self.modules.len() as ModuleId {
            let Some((file, scope)) = self.modules[m as usize].origin else {
                continue;
            };
            let tree = &files[file as usize].tree;
            for &i in &tree.scopes[scope as usize].items {
                let item = &tree.items[i as usize];
                let id = ItemId { file, idx: i };
                let vis = self.vis(m, &item.vis);
                let entry = |def| Entry {
                    def,
                    vis,
                    glob: false,
                };
                let item_entry = entry(Def::Item(id));
                match &item.kind {
                    ItemKind::Fn(_) | ItemKind::Const { .. } | ItemKind::Static { .. } => {
                        self.insert(m, Ns::Values, &item.name, item_entry);
                    }
                    ItemKind::Struct { unit_or_tuple, .. } => {
                        self.insert(m, Ns::Types, &item.name, item_entry);
                        if *unit_or_tuple {
                            self.insert(m, Ns::Values, &item.name, item_entry);
                        }
                    }
                    ItemKind::Enum { variants, .. } => {
                        self.insert(m, Ns::Types, &item.name, item_entry);
                        let names = (variants.iter().enumerate())
                            .map(|(v, var)| (v as u32, var.name.clone()))
                            .collect();
                        self.variants.insert(id, names);
                    }
                    ItemKind::Union { .. }
                    | ItemKind::Trait { .. }
                    | ItemKind::TraitAlias
                    | ItemKind::TypeAlias { .. } => {
                        self.insert(m, Ns::Types, &item.name, item_entry);
                    }
                    ItemKind::Mod { .. } => {
                        if let Some(&child) = self.modules[m as usize].children.get(&item.name) {
                            self.insert(m, Ns::Types, &item.name, entry(Def::Module(child)));
                        }
                    }
                    ItemKind::ExternCrate { krate, .. } => {
                        let k = self.modules[m as usize].krate as usize;
                        let def = match self.crates.get(k).and_then(|c| c.deps.get(krate)) {
                            Some(&dep) => Def::Module(self.crates[dep as usize].root),
                            None if krate == "self" => Def::Module(self.crates[k].root),
                            None => Def::External,
                        };
                        self.insert(m, Ns::Types, &item.name, entry(def));
                    }
                    ItemKind::MacroCall { path } => {
                        // Its expansion is not modelled: it may declare
                        // names (`test_imports!()` expanding to `use`s).
                        let name = path.last().map(|s| s.name.as_str()).unwrap_or("");
                        if !ITEM_MACROS_WITHOUT_NAMES.contains(&name) {
                            self.modules[m as usize].open_macro = true;
                        }
                    }
                    ItemKind::MacroRules { export: true } => {
                        let k = self.modules[m as usize].krate as usize;
                        let root = self.crates[k].root;
                        let e = Entry {
                            def: Def::Item(id),
                            vis: Visibility::Public,
                            glob: false,
                        };
                        self.insert(root, Ns::Macros, &item.name, e);
                    }
                    _ => {}
                }
            }
        }
    }

    /// `macro_rules!` textual scope: a module sees its parent's macros
    /// defined before its `mod` item, then its own in order; a
    /// `#[macro_use] mod` gives its macros to its parent from that point.
    fn macro_scopes(&mut self, files: &[FileData]) {
        // Bottom-up: what each module defines, its `#[macro_use]` children's
        // included (modules are numbered parents first).
        let n = self.modules.len();
        let mut own: Vec<Vec<(String, ItemId, usize)>> = vec![Vec::new(); n];
        for m in (0..n).rev() {
            let Some((file, scope)) = self.modules[m].origin else {
                continue;
            };
            let tree = &files[file as usize].tree;
            let mut list = Vec::new();
            for &i in &tree.scopes[scope as usize].items {
                let item = &tree.items[i as usize];
                match &item.kind {
                    ItemKind::MacroRules { .. } => {
                        list.push((item.name.clone(), ItemId { file, idx: i }, item.range.start));
                    }
                    ItemKind::Mod {
                        macro_use: true, ..
                    } => {
                        if let Some(&c) = self.modules[m].children.get(&item.name) {
                            let at = item.range.end;
                            list.extend(
                                own[c as usize]
                                    .iter()
                                    .map(|(name, id, _)| (name.clone(), *id, at)),
                            );
                        }
                    }
                    ItemKind::ExternCrate {
                        krate,
                        macro_use: true,
                    } => {
                        let k = self.modules[m].krate as usize;
                        if let Some(&dep) = self.crates[k].deps.get(krate) {
                            let root = self.crates[dep as usize].root as usize;
                            let exported: Vec<(String, ItemId)> = (self.modules[root].macros)
                                .iter()
                                .filter_map(|(name, e)| match e.def {
                                    Def::Item(id) => Some((name.clone(), id)),
                                    _ => None,
                                })
                                .collect();
                            self.crates[k].macro_use_prelude.extend(exported);
                        }
                    }
                    _ => {}
                }
            }
            own[m] = list;
        }
        // Top-down: the parent's macros before the `mod` item.
        for (m, mine) in own.iter_mut().enumerate() {
            let mut legacy = Vec::new();
            if let (Some(p), Some(decl)) = (self.modules[m].parent, self.modules[m].decl) {
                let at = files[decl.file as usize].tree.items[decl.idx as usize]
                    .range
                    .start;
                let parent = &self.modules[p as usize];
                legacy.extend(
                    (parent.legacy.iter())
                        .filter(|(_, _, o)| *o <= at)
                        .map(|(name, id, _)| (name.clone(), *id, 0)),
                );
            }
            legacy.append(mine);
            self.modules[m].legacy = legacy;
        }
    }

    fn resolve_imports(&mut self, files: &[FileData]) {
        let mut imports: Vec<ImportState> = Vec::new();
        for m in 0..self.modules.len() as ModuleId {
            let Some((file, scope)) = self.modules[m as usize].origin else {
                continue;
            };
            let tree = &files[file as usize].tree;
            for &i in &tree.scopes[scope as usize].items {
                if matches!(tree.items[i as usize].kind, ItemKind::Import(_)) {
                    imports.push(ImportState {
                        module: m,
                        item: ItemId { file, idx: i },
                        done: false,
                        applied: None,
                    });
                }
            }
        }
        // Globs by the module they import from: a change there is handed on
        // at once, so a chain or a cycle of globs settles in one round.
        let mut importers: HashMap<ModuleId, Vec<usize>> = HashMap::default();
        let mut rounds = 0;
        loop {
            rounds += 1;
            let mut changed = false;
            let mut dirty: Vec<ModuleId> = Vec::new();
            for (i, st) in imports.iter_mut().enumerate() {
                if st.done {
                    continue;
                }
                let item = &files[st.item.file as usize].tree.items[st.item.idx as usize];
                let ItemKind::Import(import) = &item.kind else {
                    continue;
                };
                let before = st.applied;
                if self.step_import(st, item.name.as_str(), &item.vis, import) {
                    changed = true;
                    dirty.push(st.module);
                }
                if before.is_none()
                    && let Some((src, _)) = st.applied
                {
                    importers.entry(src).or_default().push(i);
                }
            }
            while let Some(src) = dirty.pop() {
                for &g in importers.get(&src).into_iter().flatten() {
                    let st = &mut imports[g];
                    let item = &files[st.item.file as usize].tree.items[st.item.idx as usize];
                    let vis = self.vis(st.module, &item.vis);
                    if self.apply_glob(st, vis) {
                        dirty.push(st.module);
                    }
                }
            }
            if !changed || rounds >= FIXED_POINT_LIMIT {
                break;
            }
        }
        self.rounds = rounds;
        for st in &imports {
            let item = &files[st.item.file as usize].tree.items[st.item.idx as usize];
            let ItemKind::Import(import) = &item.kind else {
                continue;
            };
            let resolved = if import.glob {
                st.applied.is_some() || st.done
            } else {
                st.done
            };
            if !resolved {
                let why = if rounds >= FIXED_POINT_LIMIT {
                    Why::LimitReached
                } else {
                    match self.resolve_import_path(
                        st.module,
                        &import.path,
                        import.path.segments.len(),
                    ) {
                        Err(why) => why,
                        Ok(_) => Why::NotFound,
                    }
                };
                if import.glob {
                    self.modules[st.module as usize].open_glob = true;
                }
                self.unresolved.push(Unresolved { item: st.item, why });
            }
        }
    }

    /// One try at an import; whether the scope changed.
    fn step_import(
        &mut self,
        st: &mut ImportState,
        name: &str,
        vis: &Vis,
        import: &Import,
    ) -> bool {
        let m = st.module;
        let vis = self.vis(m, vis);
        if import.glob {
            let Ok(res) = self.resolve_import_path(m, &import.path, import.path.segments.len())
            else {
                return false;
            };
            if res.consumed < import.path.segments.len() {
                return false;
            }
            return match res.def {
                Def::Module(src) => {
                    if st.applied.is_none() {
                        st.applied = Some((src, 0));
                    }
                    self.apply_glob(st, vis)
                }
                Def::Item(e) => {
                    // `use E::*`: the enum's variants (done once).
                    st.done = true;
                    let mut changed = false;
                    let names = self.variant_names(e).to_vec();
                    for (v, name) in names {
                        let entry = Entry {
                            def: Def::Variant(e, v),
                            vis,
                            glob: true,
                        };
                        changed |= self.insert(m, Ns::Types, &name, entry);
                        changed |= self.insert(m, Ns::Values, &name, entry);
                    }
                    changed
                }
                Def::External | Def::Variant(..) => {
                    st.done = true;
                    self.modules[m as usize].open_glob = true;
                    true
                }
            };
        }
        if import.underscore {
            st.done = true;
            return false;
        }
        let n = import.path.segments.len();
        if n == 0 {
            st.done = true;
            return false;
        }
        let Ok(prefix) = self.resolve_import_path(m, &import.path, n - 1) else {
            return false;
        };
        let last = import.path.segments[n - 1].name.as_str();
        let mut found: Vec<(Ns, Def)> = Vec::new();
        match prefix.def {
            _ if prefix.consumed < n - 1 => {}
            Def::Module(src) if n > 1 || import.path.global => {
                for ns in [Ns::Types, Ns::Values, Ns::Macros] {
                    if let Some(e) = self.modules[src as usize].scope(ns).get(last) {
                        found.push((ns, e.def));
                    }
                }
            }
            Def::Module(_) => {
                // `use name;` / `use name as x;`: a crate, or a name in scope.
                for ns in [Ns::Types, Ns::Values, Ns::Macros] {
                    if let Ok(r) = self.resolve_first(m, last, ns)
                        && !matches!(r, Def::Module(x) if x == m)
                    {
                        found.push((ns, r));
                    }
                }
            }
            Def::Item(e) => {
                if let Some((v, _)) = self.variant_names(e).iter().find(|(_, n)| n == last) {
                    found.push((Ns::Types, Def::Variant(e, *v)));
                    found.push((Ns::Values, Def::Variant(e, *v)));
                }
            }
            Def::External => {
                found.push((Ns::Types, Def::External));
                found.push((Ns::Values, Def::External));
                found.push((Ns::Macros, Def::External));
            }
            Def::Variant(..) => {}
        }
        if found.is_empty() {
            return false;
        }
        st.done = true;
        let mut changed = false;
        for (ns, def) in found {
            let entry = Entry {
                def,
                vis,
                glob: false,
            };
            changed |= self.insert(m, ns, name, entry);
        }
        changed
    }

    /// What a glob's source module gained since it was applied last, put
    /// in the importing module; whether anything changed there.
    fn apply_glob(&mut self, st: &mut ImportState, vis: Visibility) -> bool {
        let Some((src, from)) = st.applied else {
            return false;
        };
        let m = st.module;
        let source = &self.modules[src as usize];
        let new: Vec<(Ns, String, Entry)> = (source.log[from..].iter())
            .filter_map(|(ns, name)| {
                let e = source.scope(*ns).get(name)?;
                Some((*ns, name.clone(), *e))
            })
            .filter(|(_, _, e)| self.visible(e.vis, m))
            .collect();
        st.applied = Some((src, source.log.len()));
        let mut changed = false;
        for (ns, name, e) in new {
            let entry = Entry {
                def: e.def,
                vis,
                glob: true,
            };
            changed |= self.insert(m, ns, &name, entry);
        }
        let src_open =
            self.modules[src as usize].open_glob || self.modules[src as usize].open_macro;
        if src_open && !self.modules[m as usize].open_glob {
            self.modules[m as usize].open_glob = true;
            changed = true;
        }
        changed
    }

    /// The variants of an enum item (empty for another item).
    pub fn variant_names(&self, e: ItemId) -> &[(u32, String)] {
        self.variants.get(&e).map(Vec::as_slice).unwrap_or_default()
    }

    /// The first `upto` segments of an import's path, from module `m`.
    fn resolve_import_path(
        &self,
        m: ModuleId,
        path: &PathRef,
        upto: usize,
    ) -> Result<PathRes, Why> {
        let names: Vec<&str> = path.names().take(upto).collect();
        self.resolve_names(m, &names, path.global, Ns::Types)
    }

    /// A name at the start of a path in module `m`: its scope, then the
    /// crates it may name, std's prelude, builtin types.
    pub fn resolve_first(&self, m: ModuleId, name: &str, ns: Ns) -> Result<Def, Why> {
        let module = &self.modules[m as usize];
        if let Some(e) = module.scope(ns).get(name) {
            return Ok(e.def);
        }
        let krate = &self.crates[module.krate as usize];
        if ns == Ns::Types {
            if let Some(&dep) = krate.deps.get(name) {
                return Ok(Def::Module(self.crates[dep as usize].root));
            }
            if krate.externals.contains(name) || SYSROOT.contains(&name) {
                return Ok(Def::External);
            }
            if BUILTIN_TYPES.contains(&name) || PRELUDE_TYPES.contains(&name) {
                return Ok(Def::External);
            }
        }
        if ns == Ns::Values && PRELUDE_VALUES.contains(&name) {
            return Ok(Def::External);
        }
        if ns == Ns::Macros
            && let Some(&id) = krate.macro_use_prelude.get(name)
        {
            return Ok(Def::Item(id));
        }
        if module.open_glob {
            return Err(Why::UnresolvedGlob);
        }
        if module.open_macro {
            return Err(Why::MacroItems);
        }
        Err(Why::NotFound)
    }

    /// A path of names from module `m`: the last one looked up in `ns`, the
    /// others in the type namespace. Stops at an item that is no module or
    /// enum: the rest are its associated items.
    pub fn resolve_names(
        &self,
        m: ModuleId,
        names: &[&str],
        global: bool,
        ns: Ns,
    ) -> Result<PathRes, Why> {
        let krate = &self.crates[self.modules[m as usize].krate as usize];
        let ns_at = |i: usize| if i + 1 == names.len() { ns } else { Ns::Types };
        let mut i = 0;
        let mut cur = if global {
            let Some(first) = names.first() else {
                return Err(Why::NotFound);
            };
            i = 1;
            match krate.deps.get(*first) {
                Some(&dep) => Def::Module(self.crates[dep as usize].root),
                None if krate.externals.contains(*first) || SYSROOT.contains(first) => {
                    Def::External
                }
                None => return Err(Why::NotFound),
            }
        } else {
            match names.first().copied() {
                None => {
                    return Ok(PathRes {
                        def: Def::Module(m),
                        consumed: 0,
                    });
                }
                Some("crate") => {
                    i = 1;
                    Def::Module(krate.root)
                }
                Some("self") => {
                    i = 1;
                    Def::Module(m)
                }
                Some("super") => {
                    let mut at = m;
                    while names.get(i) == Some(&"super") {
                        at = self.modules[at as usize].parent.ok_or(Why::NotFound)?;
                        i += 1;
                    }
                    Def::Module(at)
                }
                Some(first) => {
                    i = 1;
                    self.resolve_first(m, first, ns_at(0))?
                }
            }
        };
        while i < names.len() {
            let name = names[i];
            match cur {
                Def::Module(mm) => {
                    let module = &self.modules[mm as usize];
                    match module.scope(ns_at(i)).get(name) {
                        Some(e) => cur = e.def,
                        None if module.open_glob => return Err(Why::UnresolvedGlob),
                        None if module.open_macro => return Err(Why::MacroItems),
                        None => return Err(Why::NotFound),
                    }
                }
                Def::Item(e) => match self.variant_names(e).iter().find(|(_, n)| n == name) {
                    Some((v, _)) => cur = Def::Variant(e, *v),
                    None => {
                        return Ok(PathRes {
                            def: cur,
                            consumed: i,
                        });
                    }
                },
                Def::External => {
                    return Ok(PathRes {
                        def: Def::External,
                        consumed: names.len(),
                    });
                }
                Def::Variant(..) => return Err(Why::NotFound),
            }
            i += 1;
        }
        Ok(PathRes {
            def: cur,
            consumed: i,
        })
    }

    /// The `macro_rules!` visible at `offset` of module `m`'s file by name.
    pub fn legacy_macro(&self, m: ModuleId, name: &str, offset: usize) -> Option<ItemId> {
        let module = &self.modules[m as usize];
        (module.legacy.iter().rev())
            .find(|(n, _, o)| n == name && *o <= offset)
            .map(|(_, id, _)| *id)
    }

    fn index_impls(&mut self, files: &[FileData]) {
        for m in 0..self.modules.len() as ModuleId {
            let Some((file, scope)) = self.modules[m as usize].origin else {
                continue;
            };
            let tree = &files[file as usize].tree;
            for &i in &tree.scopes[scope as usize].items {
                let ItemKind::Impl(data) = &tree.items[i as usize].kind else {
                    continue;
                };
                let id = ItemId { file, idx: i };
                self.index_impl(m, id, data);
            }
        }
    }

    fn index_impl(&mut self, m: ModuleId, id: ItemId, data: &ImplData) {
        let trait_ = data.trait_.as_ref().and_then(|t| {
            let names: Vec<&str> = t.names().collect();
            match self.resolve_names(m, &names, t.global, Ns::Types) {
                Ok(PathRes {
                    def: Def::Item(tr),
                    consumed,
                }) if consumed == names.len() => Some(tr),
                _ => None,
            }
        });
        if let Some(tr) = trait_ {
            self.impls.of_trait.entry(tr).or_default().push(id);
            self.impls.trait_of.insert(id, tr);
        }
        let mut ty = &data.self_ty;
        while let TypeRef::Ref { inner, .. } = ty {
            ty = inner;
        }
        let target = match ty {
            TypeRef::Path(p) if p.qself.is_none() => {
                let names: Vec<&str> = p.names().collect();
                if names.len() == 1 && data.generics.params.iter().any(|g| g.name == names[0]) {
                    if data.trait_.is_some() {
                        self.impls.blanket.push(id);
                    }
                    return;
                }
                match self.resolve_names(m, &names, p.global, Ns::Types) {
                    Ok(PathRes {
                        def: Def::Item(adt),
                        consumed,
                    }) if consumed == names.len() => Some(Ok(adt)),
                    Ok(PathRes {
                        def: Def::External, ..
                    }) => Some(Err(names.last().map(|s| s.to_string()).unwrap_or_default())),
                    _ => None,
                }
            }
            TypeRef::DynTrait(b) => b.first().and_then(|t| {
                let names: Vec<&str> = t.names().collect();
                match self.resolve_names(m, &names, t.global, Ns::Types) {
                    Ok(PathRes {
                        def: Def::Item(tr), ..
                    }) => Some(Ok(tr)),
                    _ => None,
                }
            }),
            _ => None,
        };
        match (target, data.trait_.is_some()) {
            (Some(Ok(adt)), false) => self.impls.inherent.entry(adt).or_default().push(id),
            (Some(Ok(adt)), true) => self.impls.trait_for.entry(adt).or_default().push(id),
            (Some(Err(name)), true) => self.impls.for_external.entry(name).or_default().push(id),
            _ => {}
        }
    }

    /// The module path of a module: `crate::ops::gather`.
    pub fn module_path(&self, m: ModuleId) -> String {
        let mut names = Vec::new();
        let mut at = Some(m);
        while let Some(x) = at {
            let module = &self.modules[x as usize];
            if module.parent.is_some() {
                names.push(module.name.as_str());
            }
            at = module.parent;
        }
        names.push("crate");
        names.reverse();
        names.join("::")
    }

    /// The module an offset of a file is in.
    pub fn module_at(&self, file: FileIdx, tree: &ItemTree, offset: usize) -> Option<ModuleId> {
        self.module_of_scope
            .get(&(file, tree.scope_at(offset)))
            .copied()
    }
}
