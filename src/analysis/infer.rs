//! Registration functions learned from what the code does, not from their
//! names (issue 19, section 1).
//!
//! - A function that rejects a second insertion of a key built from its
//!   parameters (`if self.map.contains_key(&key) { bail!(..) }`, an
//!   `Entry::Occupied` arm that fails) registers, keyed by those parameters.
//!   A setter that merely inserts does not: replacing is its job.
//! - A function passing its parameters to the key of a registration (learned,
//!   or a `register*` by name) registers too, keyed by them: wrappers, to any
//!   depth (the engine learns again once the files naming a new name are read).
//! - `!self.allow_overwrite && ..` before the check: a method of the type
//!   setting `allow_overwrite` switches the rejection off for its receiver.

use std::collections::{HashMap, HashSet};

use crate::analysis::callees::FieldTypes;
use crate::analysis::type_ident;
use crate::config::{CallReceiver, ConstantKey, LearnedFunction, Vocabulary};
use crate::model::facts::{
    ArgValue, CallUse, CallVia, Fails, FileFacts, FnSummary, ForwardCall, Inferred, InferredKind,
    SingletonCall,
};

/// Methods of the standard collections: a learned method of one of these
/// names counts only when called on `self` (elsewhere it is most likely a
/// map's or a vector's).
const COLLECTION_METHODS: &[&str] = &[
    "insert",
    "try_insert",
    "push",
    "push_back",
    "push_front",
    "add",
    "set",
    "put",
    "extend",
    "append",
    "entry",
    "get",
];

/// Names of functions too common to read every file calling one for it
/// (beside [`COLLECTION_METHODS`]).
const EVERYDAY: &[&str] = &["new", "run", "default", "from", "build"];

/// What a crate's code teaches.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Learned {
    pub functions: Vec<LearnedFunction>,
    /// Fields that switch a learned rejection off.
    pub switch_fields: Vec<String>,
    /// Methods setting one of those fields.
    pub switches: Vec<String>,
    /// Each learned name with the place that taught it, for `config` and
    /// for findings.
    pub inferred: Vec<Inferred>,
    /// The learned functions known to reject a second key (a rejection of
    /// their own, or one they wrap); the others wrap a registration by name,
    /// which may replace.
    pub rejecting: Vec<String>,
    /// Singletons (issue 29): functions failing on their second call.
    pub singletons: Vec<LearnedSingleton>,
    /// Where [`Self::why`] and [`Self::rejects`] look: built on the first
    /// lookup, from the fields as they are then (they are not changed after,
    /// but by [`Self::import`], which drops it).
    pub index: LearnedIndex,
}

/// A function that fails on its second call whatever its arguments
/// (issue 29): by a mechanism of its own on a static, or by calling one
/// unconditionally and passing its failure on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LearnedSingleton {
    pub name: String,
    /// A method's type, its last segment.
    pub self_type: Option<String>,
    pub method: bool,
    pub arity: usize,
    /// What its second call does.
    pub fails: Fails,
    /// The static behind it, with the file holding the mechanism: two
    /// singletons of one state conflict.
    pub state: String,
    /// Why it counts, with where: "`STATE.compare_exchange` with a failing
    /// losing side at log-0.4.29/src/lib.rs:1510", "it calls `set_logger`
    /// at src/logging.rs:31".
    pub why: String,
    /// Where it is defined: "src/logging.rs:29".
    pub place: String,
    /// The singleton a wrapper calls, and where (in this package's files;
    /// `None` for one imported or of a mechanism), with that singleton's
    /// type (`WriteLogger`'s `init`, not `CombinedLogger`'s).
    pub via: Option<(String, crate::model::diagnostic::Span, Option<String>)>,
    /// How many wrappers lie between it and the mechanism.
    pub depth: u32,
    /// Learned from another package (a dependency).
    pub imported: bool,
    /// Another package can name it ([`FnSummary::public`]): only such a
    /// singleton is exported.
    pub public: bool,
    /// The file of the package defining it (`None` for one imported):
    /// a binary's function is called from that binary only.
    pub file: Option<crate::model::source::FileId>,
    /// It reaches the singleton in a closure a static's `call_once` (or
    /// `get_or_init`) runs once: that static. Its own second call does
    /// nothing; a call of the singleton by another way still fails.
    pub guarded: Option<String>,
    /// It reaches the singleton on some paths only (under an `if`): a
    /// second call through it fails on those, a first one may not have
    /// run.
    pub maybe: bool,
    /// A trait's default method (`self_type` is the trait): a method call
    /// reaches it on a receiver typed as the trait (`self` in another of
    /// its defaults), or where the trait is in scope by name.
    pub of_trait: bool,
    /// The crates whose paths reach it besides the one its place names
    /// ([`LearnedSingleton::krate`]), as paths name them: the workspace
    /// package defining it (`pq_core`) and those re-exporting it (`pub
    /// use pq_core::driver::install;` in `pq`).
    pub krates: Vec<String>,
    /// Imported, and brought by a `use` of this package under its name
    /// (`pub use sqlx_core::any::driver::install_drivers;`): its dependents
    /// reach it through this package's paths too.
    pub reexported: bool,
}

/// How many wrappers deep a singleton is learned (`init` calling
/// `try_init` calling `set_global_default`...).
pub const MAX_SINGLETON_DEPTH: u32 = 12;

impl LearnedSingleton {
    /// Whether `call` may call it: a method by a method call on a receiver
    /// of its type (`Type::new().m()`, `self.m()`), a trait's default
    /// method also where the file brings the trait into scope by name; a
    /// free function by a free call, an associated one through its type;
    /// with as many arguments as it takes parameters.
    pub fn called_by(&self, call: &SingletonCall) -> bool {
        self.name == call.callee
            && self.arity == call.arity
            && match call.via {
                CallVia::Method => {
                    let in_scope = || {
                        self.of_trait
                            && (self.self_type.as_ref()).is_some_and(|t| call.traits.contains(t))
                    };
                    self.method
                        && match &call.receiver_type {
                            Some(t) => {
                                call.receiver_type == self.self_type
                                    || self.of_trait
                                        && t.strip_prefix("dyn ") == self.self_type.as_deref()
                                    || in_scope()
                            }
                            // A chain of unknown type from a dependency's
                            // function: that dependency's method.
                            None => {
                                (call.chain_root.as_deref()).is_some_and(|r| self.of_crate(r))
                                    || in_scope()
                            }
                        }
                }
                // A dependency's free function by its path (`log::set_logger`):
                // a name alone is as likely the crate's own function.
                CallVia::Free => {
                    !self.method
                        && self.self_type.is_none()
                        && (!self.imported || call.qualified)
                        && self.in_module(&call.module)
                }
                CallVia::Typed => !self.method && call.path_type == self.self_type,
            }
    }
}

impl LearnedSingleton {
    /// std's `set` of a static `OnceLock` or `OnceCell` (`HOOK.set(hook)`),
    /// described by hand (std has no source in the dependency graph): it
    /// returns `Err` once the cell holds a value.
    pub fn std_once(call: &SingletonCall) -> Option<LearnedSingleton> {
        let ty = call.receiver_type.as_deref()?;
        let name = call.path_type.as_deref()?;
        if call.callee != "set" || call.via != CallVia::Method || call.arity != 1 {
            return None;
        }
        crate::config::ONCE_TYPES
            .contains(&ty)
            .then(|| LearnedSingleton {
                name: format!("{name}.set"),
                self_type: Some(ty.to_string()),
                method: true,
                arity: 1,
                fails: Fails::ReturnsErr,
                state: format!("{name}@{}", call.span.file),
                why: format!(
                    "`{ty}::set` on the static `{name}` returns `Err` once it holds a value"
                ),
                place: "std".to_string(),
                via: None,
                depth: 0,
                imported: false,
                public: false,
                file: None,
                guarded: None,
                maybe: false,
                of_trait: false,
                krates: Vec::new(),
                reexported: false,
            })
    }

    /// The singleton `call` calls, of `learned` or std's.
    pub fn of_call<'l>(
        learned: impl IntoIterator<Item = &'l LearnedSingleton>,
        call: &SingletonCall,
    ) -> Option<std::borrow::Cow<'l, LearnedSingleton>> {
        if let Some(std) = Self::std_once(call) {
            return Some(std::borrow::Cow::Owned(std));
        }
        // `std::panic::set_hook(..)` is no dependency's `set_hook`; nor is
        // `log::init()` the `init` of `env_logger` when `log` teaches one.
        let candidates: Vec<&LearnedSingleton> =
            learned.into_iter().filter(|l| l.called_by(call)).collect();
        let root = call.path_root.as_deref();
        if matches!(root, Some("std" | "core" | "alloc")) {
            return None;
        }
        let of_root = |l: &&LearnedSingleton| root.is_some_and(|r| l.of_crate(r));
        // A dependency's free function is reached through its crate
        // (`env_logger::init`), never through another's (`sdl2::init`).
        let reaches =
            |l: &&LearnedSingleton| !l.imported || call.via != CallVia::Free || of_root(l);
        // A path naming a module (`setup_mode::main`) reaches the function
        // of that module's file before one of a crate root, which any
        // path may name (the bin's own `main`).
        let named =
            |l: &&LearnedSingleton| call.module.is_empty() || !l.imported && !l.in_crate_root();
        let pick = match candidates.iter().any(|l| l.imported && of_root(l)) {
            true => candidates.into_iter().find(|l| !l.imported || of_root(l)),
            false => (candidates.iter().copied())
                .find(|l| reaches(l) && named(l))
                .or_else(|| candidates.into_iter().find(reaches)),
        };
        pick.map(std::borrow::Cow::Borrowed)
    }

    /// Whether a free call whose path names `module` may reach this one:
    /// a package's function defined in a module file
    /// (`src/acl/capability/new.rs`) is reached through a path ending in
    /// that module's (`capability::new::command`, `new::command`; not
    /// `permission::add::command`, nor `sdl2::init`). One in a crate root
    /// (inline modules) or of a dependency, or a path from `self` or
    /// `super`, is not told apart.
    fn in_module(&self, module: &[String]) -> bool {
        if module.is_empty() || self.imported {
            return true;
        }
        file_is_module(self.file_of_place(), module)
    }

    /// The file its place names (`src/log.rs` of `src/log.rs:42`).
    fn file_of_place(&self) -> &str {
        (self.place.rsplit_once(':')).map_or(self.place.as_str(), |(f, _)| f)
    }

    /// Whether it is defined in a crate root file (`lib.rs`, `main.rs`),
    /// whose functions any module path may name (inline modules are not
    /// told apart).
    fn in_crate_root(&self) -> bool {
        is_crate_root_file(self.file_of_place())
    }

    /// Whether a path starting at the crate `root` reaches it: the crate
    /// its place names, or one of [`Self::krates`].
    pub fn of_crate(&self, root: &str) -> bool {
        self.krate().as_deref() == Some(root) || self.krates.iter().any(|k| k == root)
    }

    /// The crate a dependency's singleton is of, as a path names it
    /// (`tracing_core` for `tracing-core-0.1.36/src/dispatcher.rs:300`).
    pub fn krate(&self) -> Option<String> {
        if !self.imported {
            return None;
        }
        let folder = self.place.split('/').next()?;
        let (name, version) = folder.rsplit_once('-')?;
        (version.starts_with(|c: char| c.is_ascii_digit())).then(|| name.replace('-', "_"))
    }
}

/// Whether the file at `file` may be the module a path names (`module`,
/// its segments after `crate`): the module path of a file is the end of its
/// path (`src/a/b.rs`, `src/a/b/mod.rs`: `a::b`), wherever its crate's
/// root is; a crate root (inline modules) is not told apart.
pub fn file_is_module(file: &str, module: &[String]) -> bool {
    if is_crate_root_file(file) {
        return true;
    }
    let mut path: Vec<&str> = file.split('/').collect();
    match path.pop().and_then(|f| f.strip_suffix(".rs")) {
        None => return true,
        Some("mod") => {}
        Some(stem) => path.push(stem),
    }
    path.len() >= module.len() && path[path.len() - module.len()..] == *module
}

/// Whether `file` (as displayed) is a crate root's, `lib.rs` or `main.rs`,
/// whose inline modules a file path does not tell apart.
fn is_crate_root_file(file: &str) -> bool {
    matches!(file.rsplit('/').next(), Some("lib.rs" | "main.rs"))
}

/// The crate's `use`s bringing a name from another crate, by that name:
/// the file (as displayed), the crate, and whether the name is that crate
/// itself (`pub use eyre;`). A path of the crate's own to one
/// (`crate::dispatcher::set_global_default`, re-exported by `pub use
/// tracing_core::dispatcher::set_global_default`) calls that crate's.
type Reexports<'f> = HashMap<&'f str, Vec<(&'f str, &'f str, bool)>>;

fn reexports<'f>(files: &[(&'f str, &'f FileFacts)]) -> Reexports<'f> {
    let mut out: Reexports<'f> = HashMap::new();
    for &(display, facts) in files {
        for u in &facts.uses {
            if let (Some(alias), Some(root)) = (u.alias.as_deref(), u.target.first())
                && !matches!(
                    root.as_str(),
                    "crate" | "self" | "super" | "std" | "core" | "alloc"
                )
            {
                let whole = u.target.len() == 1;
                out.entry(alias)
                    .or_default()
                    .push((display, root.as_str(), whole));
            }
        }
    }
    out
}

/// A library's root file (`src/lib.rs`), where `pub use` re-exports a
/// crate whole.
fn is_root(file: &str) -> bool {
    file == "lib.rs" || file.ends_with("/lib.rs")
}

/// `call` with the crate its path leads to through a re-export of the
/// crate's own, when the module file the path names brings the function
/// from one crate (`crate::dispatcher::set_global_default`), or the crate's
/// root file brings the path's first module as a crate
/// (`crate::eyre::set_hook` after `pub use eyre;`).
fn through_reexport(call: &SingletonCall, reexports: &Reexports<'_>) -> Option<SingletonCall> {
    if call.via != CallVia::Free
        || call.path_root.as_deref() != Some("crate")
        || call.module.is_empty()
    {
        return None;
    }
    // A crate root may hold the module inline: only a module's own file
    // says what it re-exports.
    let named = (reexports.get(call.callee.as_str()).into_iter().flatten())
        .filter(|(file, _, whole)| !whole && !is_root(file) && file_is_module(file, &call.module));
    let whole = (reexports.get(call.module[0].as_str()).into_iter().flatten())
        .filter(|(file, _, whole)| *whole && is_root(file));
    let mut roots = named.chain(whole).map(|(_, root, _)| *root);
    let root = roots.next()?;
    roots.all(|r| r == root).then(|| SingletonCall {
        path_root: Some(root.to_string()),
        ..call.clone()
    })
}

/// [`Learned::index`]: no part of what was learned (equal to any other,
/// empty when cloned).
#[derive(Default)]
pub struct LearnedIndex(std::sync::OnceLock<Lookups>);

#[derive(Default)]
struct Lookups {
    /// The first registration inferred under each name.
    why: HashMap<String, usize>,
    rejecting: HashSet<String>,
}

impl Clone for LearnedIndex {
    fn clone(&self) -> Self {
        LearnedIndex::default()
    }
}

impl PartialEq for LearnedIndex {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for LearnedIndex {}

impl std::fmt::Debug for LearnedIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LearnedIndex")
    }
}

impl Learned {
    /// The names learned here and not in `before`, each in its role (a
    /// method may be named as the field it sets), and those of functions
    /// learned anew (a helper whose keys grew as what it calls was learned
    /// in a later round): what a file must mention to be read again.
    pub fn new_names(&self, before: Option<&Learned>) -> Vec<String> {
        let old: HashSet<&LearnedFunction> =
            before.map_or_else(HashSet::new, |b| b.functions.iter().collect());
        let mut functions: Vec<String> = (self.functions.iter())
            .filter(|f| !old.contains(f))
            .map(|f| f.name.clone())
            .collect();
        functions.sort();
        functions.dedup();
        let roles =
            |l: &Learned| -> [Vec<String>; 2] { [l.switch_fields.clone(), l.switches.clone()] };
        let old = before.map(roles).unwrap_or_default();
        // A singleton reached through a crate more (a re-export) is new:
        // its callers by that crate's paths are read again.
        let mut old_singletons: HashMap<&str, HashSet<&str>> = HashMap::new();
        for s in before.into_iter().flat_map(|b| &b.singletons) {
            let krates = old_singletons.entry(s.name.as_str()).or_default();
            krates.extend(s.krates.iter().map(String::as_str));
        }
        let singletons = (self.singletons.iter())
            .filter(|s| match old_singletons.get(s.name.as_str()) {
                Some(krates) => s.krates.iter().any(|k| !krates.contains(k.as_str())),
                None => true,
            })
            .map(|s| s.name.clone());
        functions.extend(singletons);
        (roles(self).into_iter().zip(old))
            .flat_map(|(now, old)| {
                let old: HashSet<String> = old.into_iter().collect();
                now.into_iter().filter(move |n| !old.contains(n))
            })
            .chain(functions)
            .collect()
    }

    /// What other packages may use of this one's learning: the functions
    /// that surely reject a second key (a method named like a collection's
    /// and a wrapper of a registration by name stay home), with the switches
    /// of their types.
    pub fn exported(&self) -> Learned {
        self.exported_with(false)
    }

    /// [`Self::exported`], with the singletons reached on some paths only
    /// when `maybe` (between the packages of the workspace, a binary's
    /// own library: `run` reaching `init_logging` in one arm of a `match`).
    pub fn exported_with(&self, maybe: bool) -> Learned {
        let shared = |name: &str| self.rejects(name) && !COLLECTION_METHODS.contains(&name);
        // `insert(name, cx, allow_shadowing, item)`: no collection's.
        let own_insert = |f: &LearnedFunction| f.arity > 2 && self.rejects(&f.name);
        let own_inserts: HashSet<&str> = (self.functions.iter())
            .filter(|f| own_insert(f))
            .map(|f| f.name.as_str())
            .collect();
        Learned {
            functions: (self.functions.iter())
                .filter(|f| shared(&f.name) || own_insert(f))
                .cloned()
                .collect(),
            switch_fields: self.switch_fields.clone(),
            switches: self.switches.clone(),
            inferred: (self.inferred.iter())
                .filter(|i| shared(&i.name) || own_inserts.contains(i.name.as_str()))
                .cloned()
                .collect(),
            rejecting: (self.rejecting.iter())
                .filter(|n| shared(n) || own_inserts.contains(n.as_str()))
                .cloned()
                .collect(),
            // What a dependent can name, of this package's own: a private
            // singleton's `pub` callers stand for it, and what it imported
            // its dependents reach where it came from.
            singletons: (self.singletons.iter())
                .filter(|s| s.public && (!s.imported || s.reexported) && (maybe || !s.maybe))
                .cloned()
                .collect(),
            index: LearnedIndex::default(),
        }
    }

    /// Add what another package exports ([`Self::exported`]), but no name
    /// this one learned itself: its own meaning wins.
    pub fn import(&mut self, other: &Learned) {
        self.index = LearnedIndex::default();
        let own: HashSet<(String, usize)> = (self.functions.iter())
            .map(|f| (f.name.clone(), f.arity))
            .collect();
        let own_names: HashSet<&str> = own.iter().map(|(n, _)| n.as_str()).collect();
        let new_fn = |f: &LearnedFunction| !own.contains(&(f.name.clone(), f.arity));
        let new = |name: &str| !own_names.contains(name);
        (self.functions).extend(other.functions.iter().filter(|f| new_fn(f)).cloned());
        (self.inferred).extend(other.inferred.iter().filter(|i| new(&i.name)).cloned());
        (self.rejecting).extend(other.rejecting.iter().filter(|n| new(n)).cloned());
        // The singletons imported already, by what makes two the same: a
        // package importing thousands looks each up once, not in a list.
        type Same = (String, Option<String>, String);
        let same = |s: &LearnedSingleton| -> Same {
            (s.name.clone(), s.self_type.clone(), s.state.clone())
        };
        let mut imported: HashMap<Same, usize> = (self.singletons.iter().enumerate())
            .filter(|(_, s)| s.imported)
            .map(|(i, s)| (same(s), i))
            .collect();
        for s in &other.singletons {
            // One of this package's own of the name comes first: a call
            // by the name alone means it. Kept behind it, the other
            // package's is reached by a path through its crate, and is
            // what a wrapper of it here is learned from.
            let at = imported.get(&same(s)).copied();
            match at.map(|i| &mut self.singletons[i]) {
                // One imported already, through another package (a
                // wrapper of it, a re-export): the crates reaching it add
                // up (`pq_core`'s, re-exported by `pq`).
                Some(known) => {
                    for k in s.krate().iter().chain(&s.krates) {
                        if !known.of_crate(k) {
                            known.krates.push(k.clone());
                        }
                    }
                    known.krates.sort();
                }
                None => {
                    imported.insert(same(s), self.singletons.len());
                    self.singletons.push(LearnedSingleton {
                        imported: true,
                        reexported: false,
                        via: None,
                        file: None,
                        ..s.clone()
                    })
                }
            }
        }
        for (mine, theirs) in [
            (&mut self.switch_fields, &other.switch_fields),
            (&mut self.switches, &other.switches),
        ] {
            mine.extend(theirs.iter().cloned());
            mine.sort();
            mine.dedup();
        }
    }

    /// Whether `name` is new to a vocabulary as a singleton's only: no
    /// function, switch or switch field learned under it.
    pub fn only_a_singleton(&self, name: &str) -> bool {
        self.singletons.iter().any(|s| s.name == name)
            && !self.functions.iter().any(|f| f.name == name)
            && !self.switches.iter().any(|n| n == name)
            && !self.switch_fields.iter().any(|n| n == name)
    }

    /// The names of the singletons learned, but everyday ones (`set`, a
    /// collection's method; `new`, `main`, `run`): the files calling one
    /// are read for their calls, and a name every file calls would have
    /// every file read (tauri's `async_runtime::set`).
    /// Those left out, second.
    pub fn singleton_names(&self) -> (Vec<String>, Vec<String>) {
        let everyday =
            |n: &String| COLLECTION_METHODS.contains(&n.as_str()) || EVERYDAY.contains(&n.as_str());
        let mut names: Vec<String> = self.singletons.iter().map(|s| s.name.clone()).collect();
        names.sort();
        names.dedup();
        names.into_iter().partition(|n| !everyday(n))
    }

    /// `callee` was learned and surely rejects a second key.
    pub fn rejects(&self, callee: &str) -> bool {
        self.lookups().rejecting.contains(callee)
    }

    /// Why calls of `callee` count, when it was learned.
    pub fn why(&self, callee: &str) -> Option<&Inferred> {
        (self.lookups().why.get(callee)).map(|&i| &self.inferred[i])
    }

    fn lookups(&self) -> &Lookups {
        self.index.0.get_or_init(|| {
            let mut why = HashMap::new();
            for (at, i) in self.inferred.iter().enumerate() {
                if i.kind == InferredKind::Registration {
                    why.entry(i.name.clone()).or_insert(at);
                }
            }
            Lookups {
                why,
                rejecting: self.rejecting.iter().cloned().collect(),
            }
        })
    }
}

/// One learned function, before it becomes vocabulary.
struct Found<'a> {
    summary: &'a FnSummary,
    key: Vec<usize>,
    receiver: CallReceiver,
    why: String,
    /// It rejects a second key, or wraps a function that does (not only a
    /// registration by name, which may replace).
    rejects: bool,
    /// The field of `self` that switches its rejection off.
    switch_field: Option<String>,
    /// The parameter that switches its rejection off.
    switch_param: Option<usize>,
    /// A helper's constant keys ([`LearnedFunction::constants`]).
    constants: Vec<ConstantKey>,
    /// [`LearnedFunction::key_field`].
    key_field: Option<String>,
    /// [`LearnedFunction::wraps`].
    wraps: Option<String>,
}

/// How a wrapper passes on the switch of what it wraps.
type Switch = (Option<String>, Option<usize>);

/// Learn from the functions of a crate's files (`display`: how each file is
/// shown, for "at src/linker.rs:40").
/// `prior`: what the package knew before this round, imports included.
pub fn learn(files: &[(&str, &FileFacts)], vocab: &Vocabulary, prior: Option<&Learned>) -> Learned {
    let summaries: Vec<(&str, &FnSummary)> = (files.iter())
        .flat_map(|(display, f)| f.functions.iter().map(move |s| (*display, s)))
        .collect();
    let prior = prior.map(Prior::new);
    let prior = prior.as_ref();
    let mut found = FoundSet {
        fields: FieldTypes::new(files.iter().map(|&(_, f)| f)),
        ..FoundSet::default()
    };
    for &(display, s) in &summaries {
        if let Some(r) = &s.rejects {
            let receiver = receiver_of(s, r.receiver);
            let why = format!(
                "it rejects a second key at {display}:{} (`{}`)",
                r.line, r.check
            );
            found.push(Found {
                summary: s,
                // Not its type parameters (`TypeId::of::<A>()`): a call may
                // leave them to inference, the crate pass compares them
                // where written (`analysis::callees`). Unless they are the
                // whole key (`fn add_plugin<P>(&mut self)`): a call then
                // writes them (`add_plugin::<LogPlugin>()`), or has no key.
                key: match (r.key.iter().copied())
                    .filter(|&k| k < s.arity)
                    .collect::<Vec<_>>()
                {
                    key if key.is_empty() => r.key.clone(),
                    key => key,
                },
                receiver,
                why,
                rejects: true,
                switch_field: r.switch.clone(),
                switch_param: r.switch_param,
                constants: Vec::new(),
                key_field: r.key_field.clone(),
                wraps: None,
            });
        }
    }
    // Wrappers, until none is new (each round, a function may wrap one
    // learned in the round before).
    loop {
        let mut new = Vec::new();
        for &(display, s) in &summaries {
            if found.has(s) {
                continue;
            }
            if let Some((key, receiver, callee, rejects, switch, kept)) =
                wrapped(s, &found, vocab, prior)
            {
                let why = format!("it wraps `{callee}` at {display}:{}", s.line);
                // What the chain of wrappers ends in: calls of either meet.
                let wraps = (found.by_name.get(callee.as_str()))
                    .and_then(|at| found.list[at[0]].wraps.clone())
                    .or_else(|| {
                        let f = prior?.by_name.get(callee.as_str())?.first()?;
                        f.wraps.clone()
                    })
                    .unwrap_or(callee);
                new.push(Found {
                    summary: s,
                    key,
                    receiver,
                    why,
                    rejects,
                    switch_field: switch.0,
                    switch_param: switch.1,
                    constants: Vec::new(),
                    key_field: None,
                    wraps: kept.then_some(wraps),
                });
            }
        }
        if new.is_empty() {
            break;
        }
        new.into_iter().for_each(|f| found.push(f));
    }
    // Helpers, and helpers calling helpers, until none is new.
    loop {
        let mut new = Vec::new();
        for &(display, s) in &summaries {
            if found.has(s) {
                continue;
            }
            let Some((param, constants)) = helper(s, &found, vocab, prior) else {
                continue;
            };
            let why = helper_why(s, param, &constants, display);
            new.push(Found {
                summary: s,
                key: Vec::new(),
                // A registry made in the body and returned is numbered
                // after the parameters ([`FnSummary::arity`]).
                receiver: match param == s.arity {
                    true => CallReceiver::Returned,
                    false => CallReceiver::Free {
                        registry: Some(param),
                    },
                },
                why,
                rejects: false,
                switch_field: None,
                switch_param: None,
                constants,
                key_field: None,
                wraps: None,
            });
        }
        if new.is_empty() {
            break;
        }
        new.into_iter().for_each(|f| found.push(f));
    }
    let mut learned = to_learned(&summaries, found.list, vocab);
    learned.singletons = singletons(&summaries, prior.map(|p| p.learned), &reexports(files));
    learned.singletons.extend(reexported(
        files,
        prior.map(|p| p.learned),
        &learned.singletons,
    ));
    learned
}

/// The singletons another package taught that a `use` of these files
/// brings under their name from that package (`pub use
/// pq_core::driver::install;`): this package's dependents reach them
/// through its paths too (`pq::install`). A `use` with no `pub` counts
/// alike: a dependent naming that path reaches nothing else.
fn reexported(
    files: &[(&str, &FileFacts)],
    prior: Option<&Learned>,
    own: &[LearnedSingleton],
) -> Vec<LearnedSingleton> {
    let Some(prior) = prior else {
        return Vec::new();
    };
    let brought = |s: &LearnedSingleton| {
        (files.iter()).any(|(_, f)| {
            (f.uses.iter()).any(|u| {
                u.alias.as_deref() == Some(s.name.as_str())
                    && u.target.len() >= 2
                    && u.target.last() == Some(&s.name)
                    && s.of_crate(&u.target[0])
            })
        })
    };
    (prior.singletons.iter())
        .filter(|s| s.imported && !s.method && s.self_type.is_none())
        .filter(|s| {
            !own.iter()
                .any(|o| o.name == s.name && o.self_type.is_none())
        })
        .filter(|s| brought(s))
        .map(|s| LearnedSingleton {
            reexported: true,
            ..s.clone()
        })
        .collect()
}

/// The singletons of these functions (issue 29): those with a mechanism of
/// their own, then, round by round, those calling one (of theirs or
/// `prior`'s) on every path of their body and passing its failure on.
fn singletons(
    summaries: &[(&str, &FnSummary)],
    prior: Option<&Learned>,
    reexports: &Reexports<'_>,
) -> Vec<LearnedSingleton> {
    // A trait's default method is the trait's (`dyn Trait`: its name).
    let of = |s: &FnSummary| {
        let written = s.self_type.as_deref();
        let of_trait = written.is_some_and(|t| t.starts_with("dyn "));
        let self_type = written
            .map(|t| t.trim_start_matches("dyn "))
            .map(|t| crate::analysis::last_segment(t.split('<').next().unwrap_or(t)).to_string());
        (s.name.clone(), self_type, s.method, s.arity, of_trait)
    };
    let mut found: Vec<LearnedSingleton> = Vec::new();
    let mut done: HashSet<*const FnSummary> = HashSet::new();
    for &(display, s) in summaries {
        let Some(m) = &s.singleton else { continue };
        let (name, self_type, method, arity, of_trait) = of(s);
        done.insert(s);
        found.push(LearnedSingleton {
            name,
            self_type,
            method,
            arity,
            fails: m.fails,
            state: format!("{display}::{}", m.state),
            why: format!("{} at {display}:{}", m.how, s.line),
            place: format!("{display}:{}", s.line),
            via: None,
            depth: 0,
            imported: false,
            public: s.public,
            file: Some(s.span.file),
            guarded: None,
            maybe: false,
            of_trait,
            krates: Vec::new(),
            reexported: false,
        });
    }
    // A state a `Drop` resets (`impl Drop for LlamaBackend` exchanging the
    // flag back): the value is a guard, a second call after it drops
    // succeeds. No singleton of that state.
    let scoped: HashSet<String> = (found.iter())
        .filter(|f| f.method && f.name == "drop")
        .map(|f| f.state.clone())
        .collect();
    found.retain(|f| !scoped.contains(&f.state));
    let known = |found: &[LearnedSingleton], call: &SingletonCall| -> Option<LearnedSingleton> {
        let all = (found.iter()).chain(prior.into_iter().flat_map(|p| p.singletons.iter()));
        // The path as written first; through a re-export when it reaches
        // nothing so.
        LearnedSingleton::of_call(all.clone(), call)
            .or_else(|| {
                let reexported = through_reexport(call, reexports)?;
                LearnedSingleton::of_call(all, &reexported)
                    .map(|l| std::borrow::Cow::Owned(l.into_owned()))
            })
            .filter(|l| l.depth < MAX_SINGLETON_DEPTH)
            .map(std::borrow::Cow::into_owned)
    };
    // First the functions reaching one on every path, then those reaching
    // one on some paths only (`if audit { init_file_logging()? }`), and
    // their wrappers.
    for maybe in [false, true] {
        for _ in 0..MAX_SINGLETON_DEPTH {
            let mut new = Vec::new();
            for &(display, s) in summaries {
                if done.contains(&(s as *const FnSummary)) || s.singleton_calls.is_empty() {
                    continue;
                }
                let known = |c: &SingletonCall| known(&found, c);
                let picked = match maybe {
                    false => always_calls(s, known),
                    true => sometimes_calls(s, known),
                };
                let Some((call, callee, fails)) = picked else {
                    continue;
                };
                let (name, self_type, method, arity, of_trait) = of(s);
                done.insert(s);
                let calls = if maybe { "may call" } else { "calls" };
                new.push(LearnedSingleton {
                    name,
                    self_type,
                    method,
                    arity,
                    fails,
                    state: callee.state.clone(),
                    why: format!("it {calls} `{}` at {display}:{}", callee.name, call.line),
                    place: format!("{display}:{}", s.line),
                    via: Some((callee.name.clone(), call.span, callee.self_type.clone())),
                    depth: callee.depth + 1,
                    imported: false,
                    public: s.public,
                    file: Some(s.span.file),
                    guarded: (!maybe)
                        .then(|| call.once.clone().or_else(|| callee.guarded.clone()))
                        .flatten(),
                    maybe,
                    of_trait,
                    krates: Vec::new(),
                    reexported: false,
                });
            }
            if new.is_empty() {
                break;
            }
            found.extend(new);
        }
    }
    found
}

/// A singleton `s` calls on some path, passing its failure on, under no
/// condition that may test the global's state, nor in a loop or a closure
/// run once.
fn sometimes_calls(
    s: &FnSummary,
    known: impl Fn(&SingletonCall) -> Option<LearnedSingleton>,
) -> Option<(&SingletonCall, LearnedSingleton, Fails)> {
    (s.singleton_calls.iter())
        .filter(|c| !c.in_loop && !c.uncertain && !c.tested && c.once.is_none())
        .find_map(|c| {
            let l = known(c).filter(|l| l.guarded.is_none())?;
            let fails = match (l.fails, c.result) {
                (Fails::Panics, _) | (_, CallUse::Unwrapped) => Fails::Panics,
                (Fails::ReturnsErr, CallUse::Propagated) => Fails::ReturnsErr,
                (Fails::ReturnsErr, CallUse::Ignored) => return None,
            };
            Some((c, l, fails))
        })
}

/// A singleton `s` calls wherever its body goes, passing its failure on:
/// the call (the first of an `if`/`else` calling one in each arm), the
/// singleton and what `s`'s second call does.
fn always_calls(
    s: &FnSummary,
    known: impl Fn(&SingletonCall) -> Option<LearnedSingleton>,
) -> Option<(&SingletonCall, LearnedSingleton, Fails)> {
    let passes = |c: &SingletonCall, l: &LearnedSingleton| match (l.fails, c.result) {
        (Fails::Panics, _) | (_, CallUse::Unwrapped) => Some(Fails::Panics),
        (Fails::ReturnsErr, CallUse::Propagated) => Some(Fails::ReturnsErr),
        (Fails::ReturnsErr, CallUse::Ignored) => None,
    };
    let plain = |c: &SingletonCall| !c.in_loop && !c.uncertain;
    let mut arms: HashMap<u32, Vec<(u32, &SingletonCall, LearnedSingleton, Fails)>> =
        HashMap::new();
    // A call in a run-once closure, or of a guarded singleton, if no
    // other: the function is guarded too.
    let mut guarded = None;
    for c in s.singleton_calls.iter().filter(|c| plain(c)) {
        let Some(l) = known(c) else { continue };
        let Some(fails) = passes(c, &l) else { continue };
        match (c.branches.as_slice(), c.after_exits.as_slice()) {
            ([], []) if c.once.is_some() || l.guarded.is_some() => {
                guarded = guarded.or(Some((c, l, fails)));
            }
            ([], []) => return Some((c, l, fails)),
            // `if verbose { set_logger(&A)? } else { set_logger(&B)? }`.
            (&[(id, arm)], []) if id & IF_BRANCH != 0 => {
                arms.entry(id).or_default().push((arm, c, l, fails))
            }
            // `let Some(p) = path else { init()?; return Ok(()) };
            // init_to(p)?`: after a branch that left, the other arm.
            ([], &[id]) if id & IF_BRANCH != 0 => {
                arms.entry(id).or_default().push((1, c, l, fails))
            }
            _ => {}
        }
    }
    let mut ids: Vec<u32> = arms.keys().copied().collect();
    ids.sort_unstable();
    for id in ids {
        let calls = &arms[&id];
        let both = [0, 1]
            .iter()
            .all(|a| calls.iter().any(|(arm, ..)| arm == a));
        let same = calls.iter().all(|(_, _, l, _)| l.state == calls[0].2.state);
        if both && same {
            let fails = calls.iter().map(|c| c.3).min().expect("two arms");
            let (_, c, l, _) = &calls[0];
            return Some((c, l.clone(), fails));
        }
    }
    guarded
}

/// The bit marking an `if`'s id among [`SingletonCall::branches`] (a `match`
/// may have more than two arms).
pub const IF_BRANCH: u32 = 1 << 31;

/// The functions learned so far, found by their summary and by name (a
/// file may hold ten thousand wrappers, each round asks about each call).
#[derive(Default)]
struct FoundSet<'a> {
    list: Vec<Found<'a>>,
    summaries: HashSet<*const FnSummary>,
    by_name: HashMap<&'a str, Vec<usize>>,
    fields: FieldTypes<'a>,
}

impl<'a> FoundSet<'a> {
    fn push(&mut self, f: Found<'a>) {
        self.summaries.insert(f.summary);
        let name = f.summary.name.as_str();
        (self.by_name.entry(name).or_default()).push(self.list.len());
        self.list.push(f);
    }

    fn has(&self, s: &FnSummary) -> bool {
        self.summaries.contains(&(s as *const FnSummary))
    }

    /// The first function learned that `call` (in `caller`) calls.
    fn called(&self, call: &ForwardCall, caller: &FnSummary) -> Option<&Found<'a>> {
        (self.by_name.get(call.callee.as_str())?.iter())
            .map(|&i| &self.list[i])
            .find(|f| calls_learned(call, caller, f, &self.fields))
    }
}

/// What the package knew before this round, found by name.
struct Prior<'p> {
    learned: &'p Learned,
    by_name: HashMap<&'p str, Vec<&'p LearnedFunction>>,
}

impl<'p> Prior<'p> {
    fn new(learned: &'p Learned) -> Prior<'p> {
        let mut by_name: HashMap<&str, Vec<&LearnedFunction>> = HashMap::new();
        for f in &learned.functions {
            by_name.entry(f.name.as_str()).or_default().push(f);
        }
        Prior { learned, by_name }
    }
}

/// Which calls of a learned function count: a method's, on any receiver
/// unless it is named like a collection's method; a free function's, on the
/// registry its parameter `registry` names, if any.
fn receiver_of(s: &FnSummary, registry: Option<usize>) -> CallReceiver {
    match s.method {
        // `insert(name, cx, allow_shadowing, item)`: no collection's insert
        // takes three arguments or more.
        true => CallReceiver::Method {
            self_only: COLLECTION_METHODS.contains(&s.name.as_str()) && s.arity <= 2,
        },
        false => CallReceiver::Free { registry },
    }
}

/// The call is one of the learned function `f`, as the walker matches its
/// callers: a method by a method call, a free function by a free call.
fn calls_learned(call: &ForwardCall, caller: &FnSummary, f: &Found, fields: &FieldTypes) -> bool {
    f.summary.name == call.callee
        && f.summary.arity == call.args.len()
        && match f.receiver {
            CallReceiver::Method { self_only } => {
                call.via == CallVia::Method
                    && match (call.on_self, field_of_call(fields, call, caller)) {
                        (true, _) => f.summary.self_type == caller.self_type,
                        // `self.inner.insert(..)` on a field declared
                        // `inner: LinkerInner<T>`: that type's method, or
                        // another's (`self.headers.insert(..)` of a map).
                        (false, Some(ty)) => {
                            f.summary.self_type.as_deref().map(type_ident) == Some(ty)
                        }
                        (false, None) => !self_only,
                    }
            }
            CallReceiver::Free { .. } => call.via == CallVia::Free,
            CallReceiver::Written | CallReceiver::Returned => false,
        }
}

/// The declared type of the field of `self` that `call` is made on.
fn field_of_call<'a>(
    fields: &FieldTypes<'a>,
    call: &ForwardCall,
    caller: &FnSummary,
) -> Option<&'a str> {
    let owner = type_ident(caller.self_type.as_deref()?);
    fields.get(owner, call.self_field.as_deref()?)
}

/// `s` passes its parameters to every key argument of a registration it
/// calls: its key (those parameters), its receiver, the callee, whether it
/// surely rejects and its switch. A call passing a switch on rejects only
/// under that switch: `false` written, or the wrapper's own switch (a field
/// of `self` or a parameter); anything else may turn it off.
fn wrapped(
    s: &FnSummary,
    found: &FoundSet,
    vocab: &Vocabulary,
    prior: Option<&Prior>,
) -> Option<(Vec<usize>, CallReceiver, String, bool, Switch, bool)> {
    s.calls.iter().find_map(|call| {
        let learned = (found.called(call, s))
            .map(|f| (f.key.as_slice(), f.receiver, f.rejects, f.switch_param))
            .or_else(|| imported(call, s, &found.fields, prior?));
        let switch: Switch = match learned.and_then(|f| f.3) {
            None => (None, None),
            Some(p) => match call.values.get(p)? {
                ArgValue::Bool(false) => (None, None),
                ArgValue::SelfField(field) => (Some(field.clone()), None),
                ArgValue::Param(q) => (None, Some(*q)),
                ArgValue::Bool(true) | ArgValue::Str(_) | ArgValue::Other => return None,
            },
        };
        let (callee_key, callee_receiver) = match learned {
            // A helper's keys are its own, not its parameters.
            Some(f) if f.0.is_empty() => return None,
            Some(f) => (f.0, f.1),
            // A registration by name, on a registry the callers see: the
            // caller's (`self`), one they pass, or a global one. Not one made
            // here or a builder value (`TensorCheck::Ok.register(op, ..)`).
            None if call.on_self
                || call.on_self_field
                || call.receiver.is_some()
                || call.via == CallVia::Free =>
            {
                (vocab.registration_key(&call.callee)?, CallReceiver::Written)
            }
            None => return None,
        };
        let mut key = Vec::new();
        for &i in callee_key {
            let from = call.args.get(i).filter(|a| !a.is_empty())?;
            key.extend(from);
        }
        key.dedup();
        // Which registry the wrapper's callers name: a parameter the call
        // reaches its registry through, else the caller's receiver.
        let through = match callee_receiver {
            CallReceiver::Free { registry: Some(q) } => {
                call.args.get(q).filter(|a| a.len() == 1).map(|a| a[0])
            }
            _ => call.receiver,
        };
        let receiver = receiver_of(s, through);
        let rejects = learned.is_some_and(|f| f.2);
        // The callee's keys handed on as they are: its calls and the
        // wrapper's register in one table ([`LearnedFunction::wraps`]).
        let kept = (callee_key.iter()).all(|&i| call.kept.get(i).copied().unwrap_or(false));
        Some((key, receiver, call.callee.clone(), rejects, switch, kept))
    })
}

/// The function learned in another package (or an earlier round) that
/// `call` calls, if any: its key, receiver, whether it rejects and its
/// switch. A wrapper of a linker's name map is in another package than
/// the map (wasmtime's `LinkerInstance::insert` of `NameMap::insert`).
fn imported<'p>(
    call: &ForwardCall,
    caller: &FnSummary,
    fields: &FieldTypes,
    prior: &Prior<'p>,
) -> Option<(&'p [usize], CallReceiver, bool, Option<usize>)> {
    let f = imported_function(call, caller, fields, prior)?;
    Some((
        f.key.as_slice(),
        f.receiver,
        prior.learned.rejects(&f.name),
        f.switch,
    ))
}

/// The function learned in another package (or an earlier round) that
/// `call` calls, if any.
fn imported_function<'p>(
    call: &ForwardCall,
    caller: &FnSummary,
    fields: &FieldTypes,
    prior: &Prior<'p>,
) -> Option<&'p LearnedFunction> {
    let named = prior.by_name.get(call.callee.as_str())?;
    named.iter().copied().find(|f| {
        f.arity == call.args.len()
            && match f.receiver {
                CallReceiver::Method { self_only } => {
                    call.via == CallVia::Method
                        && match (call.on_self, field_of_call(fields, call, caller)) {
                            (true, _) => true,
                            (false, Some(ty)) => f.self_type.as_deref().map(type_ident) == Some(ty),
                            (false, None) => !self_only,
                        }
                }
                CallReceiver::Free { .. } => call.via == CallVia::Free,
                CallReceiver::Written | CallReceiver::Returned => false,
            }
    })
}

/// `s` is a helper (issue 19): a free function registering constant keys
/// on the registry one parameter hands it, wherever it runs (not under an
/// `if` or a `match`): `reg.register_backend("cpu", ..)` on its parameter
/// `reg` (a registration by name or a learned method), `add_op(reg,
/// "relu", ..)` (a learned free registration), `add_cpu(reg)` (a helper).
/// Its callers register those keys on the registry they pass. The
/// parameter and the keys, each once; none when it registers on two
/// parameters.
fn helper(
    s: &FnSummary,
    found: &FoundSet,
    vocab: &Vocabulary,
    prior: Option<&Prior>,
) -> Option<(usize, Vec<ConstantKey>)> {
    if s.method {
        return None;
    }
    let mut param = None;
    let mut constants = Vec::new();
    for call in s.calls.iter().filter(|c| !c.conditional) {
        let learned = (found.called(call, s))
            .map(|f| {
                (
                    f.key.clone(),
                    f.receiver,
                    f.switch_param,
                    f.constants.clone(),
                )
            })
            .or_else(|| {
                let f = imported_function(call, s, &found.fields, prior?)?;
                Some((f.key.clone(), f.receiver, f.switch, f.constants.clone()))
            });
        let (on, keys) = match learned {
            Some((_, _, Some(_), _)) => return None,
            // A helper handed the registry.
            Some((_, CallReceiver::Free { registry: Some(q) }, None, inner))
                if !inner.is_empty() =>
            {
                (passed_param(call, q)?, inner)
            }
            // A learned free registration handed the registry, with keys written.
            Some((key, CallReceiver::Free { registry: Some(q) }, None, _)) => {
                let key = written_key(call, &key)?;
                let callee = call.callee.clone();
                (passed_param(call, q)?, vec![ConstantKey { callee, key }])
            }
            // A learned method on the parameter itself.
            Some((key, CallReceiver::Method { self_only: false }, None, _))
                if call.receiver_whole && !call.on_self =>
            {
                let key = written_key(call, &key)?;
                let callee = call.callee.clone();
                (call.receiver?, vec![ConstantKey { callee, key }])
            }
            Some(_) => continue,
            // A registration by name on the parameter itself.
            None if call.via == CallVia::Method && call.receiver_whole && !call.on_self => {
                let Some(key) = vocab.registration_key(&call.callee) else {
                    continue;
                };
                let key = written_key(call, key)?;
                let callee = call.callee.clone();
                (call.receiver?, vec![ConstantKey { callee, key }])
            }
            None => continue,
        };
        if param.is_some_and(|p| p != on) || s.switched.contains(&on) {
            return None;
        }
        param = Some(on);
        constants.extend(keys);
    }
    constants.sort();
    constants.dedup();
    Some((param?, constants))
}

/// The parameter handed whole as the call's argument `q` (`reg`, `&mut *reg`).
fn passed_param(call: &ForwardCall, q: usize) -> Option<usize> {
    *call.passed.get(q)?
}

/// The key a call writes as string literals at the arguments `key`.
fn written_key(call: &ForwardCall, key: &[usize]) -> Option<Vec<String>> {
    if key.is_empty() {
        return None;
    }
    (key.iter())
        .map(|&i| match call.values.get(i)? {
            ArgValue::Str(s) => Some(s.clone()),
            _ => None,
        })
        .collect()
}

/// Why a helper counts: "it registers "cpu" with `register_backend` on its
/// parameter `r` at src/lib.rs:12".
fn helper_why(s: &FnSummary, param: usize, constants: &[ConstantKey], display: &str) -> String {
    let keys: Vec<String> = (constants.iter())
        .map(|c| match c.key.as_slice() {
            [one] => format!("{one:?}"),
            many => format!(
                "({})",
                many.iter()
                    .map(|k| format!("{k:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
        .collect();
    let mut callees: Vec<&str> = constants.iter().map(|c| c.callee.as_str()).collect();
    callees.dedup();
    let name = match s.params.get(param) {
        _ if param == s.arity => "the registry it returns".to_string(),
        Some(Some(name)) => format!("its parameter `{name}`"),
        _ => format!("its parameter number {}", param + 1),
    };
    format!(
        "it registers {} with `{}` on {name} at {display}:{}",
        keys.join(", "),
        callees.join("`, `"),
        s.line
    )
}

fn to_learned(summaries: &[(&str, &FnSummary)], found: Vec<Found>, vocab: &Vocabulary) -> Learned {
    let mut learned = Learned::default();
    let mut seen: HashSet<(&str, usize)> = HashSet::new();
    let mut of_name: HashMap<(&str, usize), usize> = HashMap::new();
    for (_, s) in summaries.iter().filter(|(_, s)| !s.singleton_only) {
        *of_name.entry((s.name.as_str(), s.arity)).or_default() += 1;
    }
    for f in found {
        let name = &f.summary.name;
        // A registration by name already counts, with its configured key;
        // two functions of one name and arity are one. Unless the name is
        // a built-in one and the body registers constant keys on the
        // registry it is handed (`register_builtin_codecs(&mut reg)`):
        // what the body does decides, not its name. Only a name one
        // function of the crate has: learned functions are matched by
        // name, and each module's `register(registry)` is another helper.
        let arity = f.summary.arity;
        let one_of_name = || of_name.get(&(name.as_str(), arity)) == Some(&1);
        let helper = !f.constants.is_empty()
            && vocab.configured_is_builtin(name, Some(arity))
            && one_of_name();
        if vocab.registration_key(name).is_some() && !helper || !seen.insert((name, arity)) {
            continue;
        }
        // The methods setting the field, of any type of the package: a
        // linker's setter may hand the field to the instance it builds
        // (wasmtime's `Linker::root()` gives `LinkerInstance` its
        // `allow_shadowing`).
        if let Some(field) = f.switch_field.clone() {
            learned.switches.extend(
                (summaries.iter())
                    .filter(|(_, s)| s.method && s.sets_fields.contains(&field))
                    .map(|(_, s)| s.name.clone()),
            );
            learned.switch_fields.push(field);
        }
        learned.inferred.push(Inferred {
            kind: InferredKind::Registration,
            name: name.clone(),
            span: f.summary.span,
            line: f.summary.line,
            why: f.why,
            // What a configuration cannot say as it was learned: a method
            // on `self` only (`insert`: on another receiver, a map's), a
            // switch argument.
            key: match (f.receiver, f.switch_param) {
                (CallReceiver::Method { self_only: true }, _) | (_, Some(_)) => Vec::new(),
                _ => f.key.clone(),
            },
        });
        if f.rejects {
            learned.rejecting.push(name.clone());
        }
        learned.functions.push(LearnedFunction {
            name: name.clone(),
            key: f.key,
            receiver: f.receiver,
            arity,
            switch: f.switch_param,
            constants: f.constants,
            key_field: f.key_field,
            wraps: f.wraps,
            returns_self: f.summary.returns_self,
            self_type: (f.summary.self_type.as_deref())
                .filter(|t| !t.starts_with("dyn "))
                .map(|t| type_ident(t).to_string()),
        });
    }
    learned.switches.sort();
    learned.switches.dedup();
    learned.switch_fields.sort();
    learned.switch_fields.dedup();
    learned
}
