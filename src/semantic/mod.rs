//! The semantic model: items and name resolution per crate, as rustc's
//! `rustc_resolve` and rust-analyzer's `hir-def` do it, over syn and small.
//!
//! Three stages, each a fact table built from the one below:
//!
//! - [`item_tree`]: the items of one file, without bodies and without syn
//!   nodes (names, byte ranges, declared types as small [`item_tree::TypeRef`]s).
//!   It stays the same when a body changes.
//! - [`def_map`]: per crate, the module tree (files found from `mod`
//!   declarations in the crate's file list, `#[path]`, `cfg` recorded) and the
//!   names visible in each module, in three namespaces, with `use` resolved in
//!   a fixed-point loop ([`def_map::FIXED_POINT_LIMIT`]).
//! - [`body`]: a function body resolved on demand (re-parsed from the text
//!   the model holds): local scopes, paths, and method calls sent to their
//!   impls through declared types.
//!
//! What is deliberately not modelled is listed in docs/architecture.md ("The
//! semantic model"); where the model gives up it says so
//! ([`Resolved::Unresolved`] with a [`Why`]) rather than guessing.

pub mod body;
pub mod def_map;
pub mod item_tree;
pub mod query;
pub mod ty;

use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

/// One crate of the inputs: a library, a binary, a test target.
#[derive(Debug, Clone, Default)]
pub struct CrateInput {
    /// As dependents call it (`burn_core`: dashes made underscores).
    pub name: String,
    /// The crate root (`src/lib.rs`, `src/main.rs`, `tests/x.rs`).
    pub root_file: PathBuf,
    /// The files the module tree may reach (more is fine: a file no `mod`
    /// reaches is not part of the crate).
    pub files: Vec<(PathBuf, Arc<str>)>,
    /// Dependencies among the inputs: (the name this crate calls it by,
    /// index of that crate in the inputs).
    pub deps: Vec<(String, usize)>,
    /// Other dependencies (outside the inputs), by the name this crate calls
    /// them: their paths resolve to [`Resolved::External`].
    pub external_deps: Vec<String>,
}

/// A name in code that refers to something.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// As given in the input.
    pub file: PathBuf,
    /// Bytes of the referring name as written: last path segment, method
    /// name, macro name, field name.
    pub range: Range<usize>,
    pub kind: RefKind,
    pub target: Resolved,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RefKind {
    /// `f(..)`, `T::new(..)`, `Variant(..)`: the callee path.
    Call,
    /// `x.f(..)`.
    MethodCall,
    /// A value: a const, static or fn used as a value, a unit struct, a variant.
    Path,
    /// A type: in a signature, a `let` annotation, a struct literal or pattern.
    Type,
    /// The last name of a `use` path.
    Import,
    /// `m!(..)`.
    Macro,
    /// `x.field`, `T { field: .. }`.
    Field,
}

/// What a name stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolved {
    /// An item of the inputs: one, or several. A method called on a generic
    /// `R: Trait` (or `impl Trait`, `dyn Trait`) resolves to the trait's
    /// declaration of the method first, then every impl's method in the
    /// inputs.
    Item(Vec<ItemLoc>),
    /// A local binding or a generic parameter.
    Local,
    /// std/core/alloc, a crate outside the inputs, a builtin type.
    External,
    /// Not known: why.
    Unresolved(Why),
}

/// Why a name stays unresolved: the model says so rather than guessing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Why {
    /// No item of that name where the path leads.
    NotFound,
    /// The name may come from a glob import of an external crate, or one
    /// that did not resolve.
    UnresolvedGlob,
    /// The module calls a macro where items stand, whose expansion (not
    /// modelled) may declare the name.
    MacroItems,
    /// A path segment is an unresolved import.
    UnresolvedImport,
    /// The receiver's type is not known from declarations.
    UnknownReceiver,
    /// The receiver's type is known, but has no such method in the inputs.
    MethodNotFound,
    /// An associated item of a type that could not be found.
    AssocNotFound,
    /// A macro neither `macro_rules!` in scope nor exported by a crate.
    MacroNotFound,
    /// The file could not be parsed (or nests too deep).
    FileNotParsed,
    /// A bound of the model was reached ([`def_map::FIXED_POINT_LIMIT`],
    /// a chain of aliases or derefs).
    LimitReached,
    /// The position asked for is in no file of the model.
    NoSuchScope,
}

impl Why {
    /// What it means, for `backend-lint config`'s counts.
    pub fn describe(self) -> &'static str {
        match self {
            Why::NotFound => "no item of that name where the path leads",
            Why::UnresolvedGlob => "may come from a glob import of another crate",
            Why::MacroItems => "a macro call among the items may declare it (not expanded)",
            Why::UnresolvedImport => "through an import that does not resolve",
            Why::UnknownReceiver => "the receiver's type is not known from declarations",
            Why::MethodNotFound => "the receiver's type has no such method in the code read",
            Why::AssocNotFound => "an associated item of a type not found",
            Why::MacroNotFound => "a macro neither `macro_rules!` in scope nor exported",
            Why::FileNotParsed => "in a file that does not parse",
            Why::LimitReached => "a bound of the model was reached",
            Why::NoSuchScope => "in no file of the model",
        }
    }
}

/// Where an item is defined.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ItemLoc {
    pub file: PathBuf,
    /// Bytes of the item's name ident at its definition.
    pub name: Range<usize>,
}

/// Index of a file in the model.
pub type FileIdx = u32;

/// An item: its file and its index in that file's item tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ItemId {
    pub file: FileIdx,
    pub idx: u32,
}

/// One file of the model.
pub struct FileData {
    pub path: PathBuf,
    pub text: Arc<str>,
    pub krate: u32,
    /// Shared by the crates that read the same text (a package's targets).
    pub tree: Arc<item_tree::ItemTree>,
}

/// The semantic model of a set of crates.
pub struct Model {
    pub files: Vec<FileData>,
    pub def_map: def_map::DefMap,
    /// The files of each path (one a crate that reads it).
    by_path: std::collections::HashMap<PathBuf, Vec<FileIdx>>,
    /// What it was built from, for [`Model::rebuilt`].
    crates: Vec<CrateInput>,
}

/// Item trees already made, by file and text (the text's address: the
/// same `Arc` given to several crates is one text).
type Trees = std::collections::HashMap<(PathBuf, usize), Arc<item_tree::ItemTree>>;

impl Model {
    /// Build the item trees of every file and the def maps of every crate.
    /// Parses on threads with a large stack (the parser's recursion), one
    /// per processor ([`parse_all`]), whose span tables are freed after
    /// each file.
    pub fn build(crates: Vec<CrateInput>) -> Model {
        Model::build_with(crates, Trees::new(), None)
    }

    /// [`Model::build`], each item tree made from the text `skim` gives
    /// for a file's ([`item_tree::ItemTree::parse_skimmed`]).
    pub fn build_skimming(crates: Vec<CrateInput>, skim: item_tree::Skim) -> Model {
        Model::build_with(crates, Trees::new(), Some(skim))
    }

    /// The model of the same crates with the texts (and their item trees)
    /// of `changed`: the item trees of the other files are kept, the def
    /// maps built again. An editor's edit that adds, removes or renames an
    /// item costs the parse of that file, not of its package (issue 30),
    /// and no file is read: the crates and their files are the ones the
    /// model was built from.
    pub fn rebuilt(self, changed: Vec<(PathBuf, Arc<str>, Arc<item_tree::ItemTree>)>) -> Model {
        let Model {
            files, mut crates, ..
        } = self;
        let mut trees: Trees = (files.into_iter())
            .filter(|f| !changed.iter().any(|(p, ..)| *p == f.path))
            .map(|f| ((f.path, f.text.as_ptr() as usize), f.tree))
            .collect();
        with_texts(&mut crates, &changed);
        for (path, text, tree) in changed {
            trees.insert((path, text.as_ptr() as usize), tree);
        }
        Model::build_with(crates, trees, None)
    }

    /// The model with the texts and item trees of `changed`, which declare
    /// the items the files had (but for where they are): the def maps stay.
    pub fn replaced(
        mut self,
        changed: Vec<(PathBuf, Arc<str>, Arc<item_tree::ItemTree>)>,
    ) -> Model {
        with_texts(&mut self.crates, &changed);
        for (path, text, tree) in changed {
            for f in self.by_path.get(&path).into_iter().flatten() {
                let file = &mut self.files[*f as usize];
                file.text = text.clone();
                file.tree = tree.clone();
            }
        }
        self
    }

    fn build_with(
        crates: Vec<CrateInput>,
        mut trees: Trees,
        skim: Option<item_tree::Skim>,
    ) -> Model {
        // Each text not parsed yet, once, on every processor: the server's
        // first model of a package waited for its files one by one.
        let mut todo: Vec<(PathBuf, Arc<str>)> = Vec::new();
        let mut queued = std::collections::HashSet::new();
        for c in &crates {
            for (path, text) in &c.files {
                let key = (path.clone(), text.as_ptr() as usize);
                if !trees.contains_key(&key) && queued.insert(key) {
                    todo.push((path.clone(), text.clone()));
                }
            }
        }
        drop(queued);
        for ((path, text), tree) in todo.iter().zip(parse_all(&todo, skim)) {
            trees.insert((path.clone(), text.as_ptr() as usize), tree);
        }
        drop(todo);
        with_big_stack(move || {
            let mut files: Vec<FileData> = Vec::new();
            let mut seen = std::collections::HashMap::new();
            let mut crate_files: Vec<Vec<FileIdx>> = Vec::new();
            // A text given to several crates is parsed once, and one the
            // model was built with before not again.
            let mut parsed = trees;
            for (k, c) in crates.iter().enumerate() {
                let mut own = Vec::new();
                for (path, text) in &c.files {
                    // A file given to two crates (a package's lib and its
                    // bins share one list) is read once per crate: its place
                    // in each module tree differs.
                    let key = (k, path.clone());
                    if seen.contains_key(&key) {
                        continue;
                    }
                    let idx = files.len() as FileIdx;
                    seen.insert(key, idx);
                    let tree = parsed
                        .entry((path.clone(), text.as_ptr() as usize))
                        .or_insert_with(|| Arc::new(item_tree::ItemTree::parse(text)))
                        .clone();
                    files.push(FileData {
                        path: path.clone(),
                        text: text.clone(),
                        krate: k as u32,
                        tree,
                    });
                    own.push(idx);
                }
                crate_files.push(own);
            }
            let def_map = def_map::DefMap::build(&crates, &files, &crate_files);
            let mut by_path: std::collections::HashMap<PathBuf, Vec<FileIdx>> = Default::default();
            for (i, f) in files.iter().enumerate() {
                by_path
                    .entry(f.path.clone())
                    .or_default()
                    .push(i as FileIdx);
            }
            // Only the trees of this model's texts stay alive.
            drop(parsed);
            Model {
                files,
                def_map,
                by_path,
                crates,
            }
        })
    }

    /// Every reference in every body and item signature of every crate.
    pub fn references(&self) -> Vec<Reference> {
        with_big_stack(|| body::all_references(self))
    }

    /// Where an item is defined.
    pub fn loc(&self, id: ItemId) -> ItemLoc {
        let file = &self.files[id.file as usize];
        ItemLoc {
            file: file.path.clone(),
            name: file.tree.items[id.idx as usize].name_range.clone(),
        }
    }

    /// The item at a location (the inverse of [`Model::loc`]).
    pub fn item_at(&self, loc: &ItemLoc) -> Option<ItemId> {
        self.files_of(&loc.file).find_map(|f| {
            let tree = &self.files[f as usize].tree;
            let &idx = tree.by_name_start.get(&loc.name.start)?;
            (tree.items[idx as usize].name_range == loc.name).then_some(ItemId { file: f, idx })
        })
    }

    /// The files of the model at `path` (one per crate that reads it).
    pub fn files_of(&self, path: &std::path::Path) -> impl Iterator<Item = FileIdx> + '_ {
        self.by_path.get(path).into_iter().flatten().copied()
    }
}

/// A model built on the first question that needs it, for the crate pass:
/// most crates ask none, and pay nothing. The runner gives the builder
/// (only it reads files); the references of each file asked about are
/// resolved once and kept.
pub struct Lazy {
    model: std::sync::OnceLock<Option<Model>>,
    build: Box<dyn Fn() -> Option<Model> + Send + Sync>,
    /// Per path: where each reference starts, what it names.
    refs: std::sync::Mutex<std::collections::HashMap<PathBuf, RefsAt>>,
    /// Whether the model may hold other packages' crates (asked once).
    others: std::sync::OnceLock<bool>,
    reaches_others: Box<dyn Fn() -> bool + Send + Sync>,
}

/// The references of one file by the start of their name.
type RefsAt = Arc<FileRefs>;

/// What the calls of one file name, by the start of their name.
#[derive(Default)]
struct FileRefs {
    calls: std::collections::HashMap<usize, Resolved>,
    /// What each `to_string()` and `format!("{}", x)` writes.
    displays: std::collections::HashMap<usize, Resolved>,
}

impl Lazy {
    pub fn new(build: impl Fn() -> Option<Model> + Send + Sync + 'static) -> Lazy {
        Lazy {
            model: std::sync::OnceLock::new(),
            build: Box::new(build),
            refs: Default::default(),
            others: std::sync::OnceLock::new(),
            reaches_others: Box::new(|| true),
        }
    }

    /// With what tells, when first asked, whether the model may hold
    /// other packages' crates (a package in a workspace, or with path
    /// dependencies): a call can resolve into another package only then.
    pub fn with_others(mut self, reaches: impl Fn() -> bool + Send + Sync + 'static) -> Lazy {
        self.reaches_others = Box::new(reaches);
        self
    }

    /// Whether the model may hold other packages' crates.
    pub fn reaches_others(&self) -> bool {
        *self.others.get_or_init(|| (self.reaches_others)())
    }

    /// The model, built now if it was not yet; `None` when it cannot be.
    pub fn get(&self) -> Option<&Model> {
        self.model.get_or_init(|| (self.build)()).as_ref()
    }

    /// Whether a question already built it.
    pub fn is_built(&self) -> bool {
        self.model.get().is_some()
    }

    /// The model, if a question built it, taken out (the language server
    /// keeps it for the next run of the same files when an edit changes no
    /// item: [`Model::files`] updated, its def map kept).
    pub fn take_model(&mut self) -> Option<Model> {
        self.model.take().flatten()
    }

    /// What the name `name` written at `range` of `file` (a callee's last
    /// segment, a method's name) refers to; `None` where the model has no
    /// reference there (not a file of the model, not a name it resolves),
    /// or its text of the file is not the one asked about (an editor's
    /// unsaved buffer: the model reads the disk).
    pub fn target_at(
        &self,
        file: &std::path::Path,
        range: &Range<usize>,
        name: &str,
    ) -> Option<Resolved> {
        let refs = self.refs_named(file, range, name)?;
        refs.calls.get(&range.start).cloned()
    }

    /// What the `to_string()` or `format!("{}", x)` whose name `name` is
    /// written at `range` of `file` writes: the `fmt` of the receiver's
    /// (or `x`'s) `impl Display` ([`Model::display_of`]); `None` as for
    /// [`Lazy::target_at`].
    pub fn display_at(
        &self,
        file: &std::path::Path,
        range: &Range<usize>,
        name: &str,
    ) -> Option<Resolved> {
        let refs = self.refs_named(file, range, name)?;
        refs.displays.get(&range.start).cloned()
    }

    /// The references of `file`, when the model's text of it has `name` at
    /// `range` (it is the text asked about).
    fn refs_named(
        &self,
        file: &std::path::Path,
        range: &Range<usize>,
        name: &str,
    ) -> Option<RefsAt> {
        let refs = self.refs_of(file)?;
        let model = self.get()?;
        let f = model.files_of(file).next()?;
        let text = &model.files[f as usize].text;
        (text.get(range.clone())? == name).then_some(refs)
    }

    fn refs_of(&self, file: &std::path::Path) -> Option<RefsAt> {
        if let Some(known) = self.refs.lock().ok()?.get(file) {
            return Some(known.clone());
        }
        let model = self.get()?;
        let mut out = Vec::new();
        let mut displays = Vec::new();
        // The first crate reading the file (a package's library before its
        // binaries) resolves it.
        let reached = |&f: &FileIdx| {
            let data = &model.files[f as usize];
            model.def_map.module_at(f, &data.tree, 0).is_some()
        };
        if let Some(f) = model.files_of(file).find(reached) {
            displays = file_references_here(model, f, &mut out);
        }
        let by_start: RefsAt = Arc::new(FileRefs {
            calls: (out.into_iter())
                .filter(|r| matches!(r.kind, RefKind::Call | RefKind::MethodCall))
                .map(|r| (r.range.start, r.target))
                .collect(),
            displays: displays.into_iter().collect(),
        });
        (self.refs.lock().ok()?).insert(file.to_path_buf(), by_start.clone());
        Some(by_start)
    }
}

/// [`body::file_references_and_displays`] on the caller's thread (the crate pass runs
/// on big stacks), its span table freed after.
fn file_references_here(
    model: &Model,
    f: FileIdx,
    out: &mut Vec<Reference>,
) -> Vec<(usize, Resolved)> {
    let displays = body::file_references_and_displays(model, f, out);
    proc_macro2::extra::invalidate_current_thread_spans();
    displays
}

/// Run `f` on a thread with a stack deep enough for the parser's bounds
/// (`syntax::limits`), as the runner's threads have.
/// The texts of `changed` given to every crate that reads their files:
/// what [`Model::rebuilt`] builds from, or rebuilds from later.
fn with_texts(
    crates: &mut [CrateInput],
    changed: &[(PathBuf, Arc<str>, Arc<item_tree::ItemTree>)],
) {
    for (path, text) in crates.iter_mut().flat_map(|c| &mut c.files) {
        if let Some((_, new, _)) = changed.iter().find(|(p, ..)| p == path) {
            *text = new.clone();
        }
    }
}

/// The stack of the model's threads: the parser recurses.
const STACK_BYTES: usize = 256 * 1024 * 1024;

/// The item tree of each text, in order, parsed on as many big-stack
/// threads as there are processors (one for a few files); each thread's
/// span table is freed after each file.
fn parse_all(
    texts: &[(PathBuf, Arc<str>)],
    skim: Option<item_tree::Skim>,
) -> Vec<Arc<item_tree::ItemTree>> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(texts.len().div_ceil(16))
        .max(1);
    let next = AtomicUsize::new(0);
    let work = || {
        let mut mine = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some((_, text)) = texts.get(i) else {
                return mine;
            };
            let tree = match skim {
                Some(skim) => item_tree::ItemTree::parse_skimmed(text, skim),
                None => item_tree::ItemTree::parse(text),
            };
            proc_macro2::extra::invalidate_current_thread_spans();
            mine.push((i, Arc::new(tree)));
        }
    };
    let mut parsed: Vec<(usize, Arc<item_tree::ItemTree>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                std::thread::Builder::new()
                    .stack_size(STACK_BYTES)
                    .spawn_scoped(s, work)
                    .expect("a thread for the semantic model")
            })
            .collect();
        (handles.into_iter())
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    // Every index was taken by exactly one thread.
    parsed.sort_unstable_by_key(|(i, _)| *i);
    parsed.into_iter().map(|(_, tree)| tree).collect()
}

fn with_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(STACK_BYTES)
            .spawn_scoped(s, f)
            .expect("a thread for the semantic model")
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    })
}
