//! The vocabulary the lints read: built-in names, what a configuration
//! adds, and the registration functions learned from the code.

use std::collections::HashMap;
use std::sync::Arc;

use super::names::{FirstBytes, NameSet, Pattern};

// ---------------------------------------------------------------------------
// Built-in vocabulary

pub(super) const CANONICAL: &[&str] = &["cpu", "tpu", "cuda", "rocm", "oneapi", "metal"];
pub(super) const ALIASES: &[(&str, &[&str])] = &[("gpu", &["cuda", "rocm", "oneapi"])];
pub(super) const CANONICALIZERS: &[&str] = &["canonicalize_platform"];
pub(super) const SOURCES: &[&str] = &["platform", "platform_name"];
/// Every `register*` call is a registration keyed by its first argument;
/// `registered*` are queries (`registered_backends()`). FFI handlers and
/// custom-call targets are registered once per platform: PJRT's
/// `register_handler(target, platform, ..)` (pjrt-rs; ryft's
/// `register_ffi_handler`), XLA's `register_custom_call_target(name, f, platform)`.
pub(super) const FUNCTIONS: &[(&str, &[usize])] = &[
    ("register*", &[0]),
    ("!registered*", &[]),
    ("register_handler", &[0, 1]),
    ("register_ffi_handler", &[0, 1]),
    ("register_custom_call_target", &[0, 2]),
];
pub(super) const LOWERING_REGISTRATIONS: &[&str] = &["register_lowering"];
pub(super) const BACKENDS: &[&str] = &[
    "register_backend_factory",
    "register_backend",
    "register_plugin",
    "register_platform",
];
/// A function that checks one of these before inserting, and fails when it
/// finds the key, registers (issue 19): `if self.map.contains_key(&k) {
/// bail!(..) }`, `match self.map.entry(k) { Entry::Occupied(_) => Err(..) }`.
/// Also, with a key that is a parameter of the function: a set's
/// `if self.names.contains(&name) { Err(..) }` and `if
/// !self.names.insert(name) { Err(..) }`, `if self.map.get(&k).is_some() {
/// bail!(..) }`, `if self.map.get(&k).is_none() { insert } else { Err(..) }`
/// and `if self.map.insert(k, v).is_some() { panic!(..) }`
/// ([`crate::syntax::rejection::CALL_REJECTIONS`]).
pub(super) const REJECTIONS: &[&str] = &[
    "contains_key",
    "Occupied",
    "contains",
    "insert",
    "is_some",
    "is_none",
];

/// The calls of a singleton's own mechanism on a static (issue 29): an
/// exchange whose losing side fails, a `call_once` replacing a preset
/// `Err` (`analysis::extract::singleton`). A file calling none on a
/// static (`STATE.compare_exchange(..)`, a receiver in capitals) holds no
/// mechanism (`analysis::extract::static_mechanism`): these are no
/// vocabulary word, which any atomic's exchange would be.
pub const SINGLETON_MECHANISMS: &[&str] = &[
    "compare_exchange",
    "compare_exchange_weak",
    "compare_and_swap",
    "call_once",
];

/// std's cells whose `set` returns `Err` once they hold a value: std has no
/// source in the dependency graph, so these are described by hand
/// (`analysis::extract::sets_once_static`). `once_cell`'s types of the same
/// names behave alike.
/// Each starts with `Once`, the stem `once_statics` searches for.
pub const ONCE_TYPES: &[&str] = &["OnceLock", "OnceCell"];

pub(super) const GUARDS: &[&str] = &[
    "is_registered",
    "contains",
    "contains_key",
    "has_backend",
    "is_initialized",
];
pub(super) const UNREGISTER: &[&str] = &[
    "unregister*",
    "deregister*",
    "remove",
    "remove_entry",
    "take",
];
pub(super) const RUN_ONCE: &[&str] = &[
    "get_or_init",
    "get_or_try_init",
    "get_or_insert_with",
    "call_once",
    "call_once_force",
];
pub(super) const LOWERING_CALLS: &[&str] = &["lower", "lower_*", "!lower_bound"];
pub(super) const BACKEND_SETTERS: &[&str] = &["with_backend", "replace_backend", "set_backend"];
pub(super) const BACKEND_REQUESTS: &[&str] = &["get_backend"];

/// A registration function and the arguments that make up its key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Function {
    pub(super) pattern: Pattern,
    pub(super) key: Vec<usize>,
    pub(super) receiver: CallReceiver,
    /// A learned function's number of parameters (`self` not counted): it
    /// is called with as many arguments. Two types of a package may each
    /// have a `func_wrap`, with different keys.
    pub(super) arity: Option<usize>,
    /// A learned function's argument that must be written `false` for the
    /// call to reject a second key ([`LearnedFunction::switch`]).
    pub(super) switch: Option<usize>,
    /// A learned helper's constant keys ([`LearnedFunction::constants`]).
    pub(super) constants: Vec<ConstantKey>,
    /// A learned method that hands its receiver back
    /// ([`LearnedFunction::returns_self`]).
    pub(super) returns_self: bool,
    /// [`LearnedFunction::key_field`].
    pub(super) key_field: Option<String>,
    /// [`LearnedFunction::wraps`].
    pub(super) wraps: Option<String>,
}

/// Which calls of a registration function count, and which registry they
/// register on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum CallReceiver {
    /// Any call of the name, on the receiver as written (configured names).
    #[default]
    Written,
    /// A learned method: only a method call (or `Type::m(recv, ..)`); on
    /// `self` only with `self_only`, for a method named like a collection's
    /// (`insert`), which on another receiver is most likely a map's.
    Method { self_only: bool },
    /// A learned free function: only a call by a path not through a type;
    /// it registers on its argument `registry` (`add_op(&mut reg, "relu",
    /// f)`, a learned wrapper of `reg.register(..)`), if any.
    Free { registry: Option<usize> },
    /// A learned factory: a free function returning a registry it
    /// registered its constant keys on (`fn base_linker(..) -> Linker { let
    /// mut l = Linker::new(..); define_logging(&mut l); l }`): the local its
    /// result is bound to holds those keys (`let mut l = base_linker(..)?`).
    Returned,
}

/// A registration function learned from the code (issue 19): its name, the
/// arguments that key it and which registry it registers on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LearnedFunction {
    pub name: String,
    pub key: Vec<usize>,
    pub receiver: CallReceiver,
    /// Its number of parameters, `self` not counted.
    pub arity: usize,
    /// The parameter that switches its rejection off (`allow_shadowing` of
    /// `insert(name, cx, allow_shadowing, item)`): a call registers only
    /// when it passes `false` there.
    pub switch: Option<usize>,
    /// A helper's keys: what it registers, whatever its arguments, on the
    /// registry its parameter ([`CallReceiver::Free`]'s `registry`) is
    /// given (`fn add_cpu(reg: &mut Registry) { reg.register("cpu", ..) }`).
    /// Its `key` is then empty.
    pub constants: Vec<ConstantKey>,
    /// The `impl`'s self type of a learned method (last segment): a call on
    /// a receiver known to be of another type is that type's method.
    pub self_type: Option<String>,
    /// A method that hands its receiver back (`-> Self`, `-> &mut Self`,
    /// `-> Result<&mut Self, E>`): a call chained on its result
    /// (`router.route(..).route(..)`) is on the same registry.
    pub returns_self: bool,
    /// Its key is this field of the value given (`var.name` of
    /// `add_variable(var, ..)`): a call's key is the name the value was
    /// built with (`Variable::se3("gauge", ..)`, `Variable { name: .. }`).
    pub key_field: Option<String>,
    /// A wrapper's end: the registration its chain of wrappers calls
    /// (`add_scale(g, name)` calling `g.add_node(..)`): its calls and that
    /// one's register in one table.
    pub wraps: Option<String>,
}

/// A key a learned helper registers on the registry it is given.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ConstantKey {
    /// The registration it calls (`register_backend`): the callee its
    /// callers' registrations name, so that they meet the direct calls.
    pub callee: String,
    /// One string per key argument of `callee`.
    pub key: Vec<String>,
}

// ---------------------------------------------------------------------------
// The vocabulary the lints use

/// One set of names of the vocabulary, as the walk's collectors declare what
/// they start facts from and what they read (`analysis::extract::collect`),
/// and as they ask for it ([`Vocabulary::has`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Names {
    /// The registration functions, configured and learned
    /// ([`Vocabulary::registration_key`]).
    RegistrationFunctions,
    /// `register_lowering(primitive, rule, platform)`-shaped registrations.
    LoweringRegistrations,
    /// Registrations keyed by the platform a backend serves.
    Backends,
    /// `is_registered(key)`-style checks that make a registration conditional.
    Guards,
    /// Calls that remove a registration.
    Unregister,
    /// Methods whose closure runs at most once (`get_or_init`).
    RunOnce,
    /// Methods, fields and functions giving a raw platform name.
    Sources,
    /// Functions and methods whose result is a canonical platform.
    Canonicalizers,
    /// Lowering calls (`lower(&ctx, &["cuda"])`).
    LoweringCalls,
    /// Methods that give a lowering context its backend (`with_backend`).
    BackendSetters,
    /// Calls that ask for a platform's backend (`get_backend("cpu")`).
    BackendRequests,
    /// Checks that reject a key already present (`contains_key`, `Occupied`).
    Rejections,
    /// Fields that turn a learned registration's rejection off (learned).
    SwitchFields,
    /// Methods that set such a field (learned).
    Switches,
    /// Singletons (issue 29) learned from the code (the calls of a
    /// singleton's own mechanism are found apart: [`SINGLETON_MECHANISMS`]).
    Singletons,
    /// The field `platforms` of a lowering context: a fixed name, not
    /// configured.
    PlatformsField,
    /// The standard library's string normalizers ([`NORMALIZERS`]), whose
    /// output has a known shape: fixed names, not configured.
    Normalizers,
    /// The canonical platforms spelled as a variant is (`Cpu`, `Cuda`):
    /// what a derived `Debug` writes of such a variant.
    /// Derived from the canonical names, not configured.
    PlatformVariants,
}

impl Names {
    /// A set the configuration names (or the learning adds to), not the
    /// field `platforms`, a fixed name: a function so named is no known
    /// name, nor a local macro naming it one worth expanding.
    pub fn is_configured(self) -> bool {
        !matches!(
            self,
            Names::PlatformsField | Names::Normalizers | Names::PlatformVariants
        )
    }

    /// Every set.
    #[cfg(test)]
    pub const ALL: [Names; 18] = [
        Names::RegistrationFunctions,
        Names::LoweringRegistrations,
        Names::Backends,
        Names::Guards,
        Names::Unregister,
        Names::RunOnce,
        Names::Sources,
        Names::Canonicalizers,
        Names::LoweringCalls,
        Names::BackendSetters,
        Names::BackendRequests,
        Names::Rejections,
        Names::SwitchFields,
        Names::Switches,
        Names::Singletons,
        Names::PlatformsField,
        Names::Normalizers,
        Names::PlatformVariants,
    ];
}

/// [`Names::PlatformVariants`] of the canonical names `canonical`: each
/// capitalized, as a variant is named (`Cuda`, `Metal`). Not in capitals:
/// `CPU` fills prose and docs, and a search for it in every file costs
/// more than the rare variant so named is worth.
pub(super) fn platform_variants<'c>(canonical: impl Iterator<Item = &'c str>) -> NameSet {
    let mut spellings = Vec::new();
    for name in canonical.filter(|n| n.is_ascii() && !n.is_empty()) {
        let mut capitalized = name.to_ascii_lowercase();
        capitalized[..1].make_ascii_uppercase();
        spellings.push(capitalized);
    }
    spellings.sort();
    spellings.dedup();
    let names: Vec<&str> = spellings.iter().map(String::as_str).collect();
    NameSet::builtin(&names)
}

/// The field holding a lowering context's platforms ([`Names::PlatformsField`]).
pub const PLATFORMS_FIELD: &str = "platforms";

/// The std methods whose output has a known shape ([`Names::Normalizers`]):
/// lowercased, uppercased, trimmed, or without what was replaced.
pub const NORMALIZERS: &[&str] = &[
    "to_lowercase",
    "to_ascii_lowercase",
    "to_uppercase",
    "to_ascii_uppercase",
    "trim",
    "replace",
];

/// Where the walker matches a vocabulary name (`analysis::extract::collect`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameUse {
    /// Anywhere: a field, a method, a function, a pattern field.
    Anywhere,
    /// Only as the callee of a call or method call, followed by `(` or by
    /// `::<..>(`.
    Callee,
    /// As [`NameUse::Callee`], with an argument: a registration needs its
    /// key, a lowering call its platforms (`x.lower()` starts nothing).
    CalleeWithArguments,
    /// A method of a string (`.to_lowercase()`, `.replace("a", "b")`):
    /// after a `.`, before `(`, with no argument or a literal first (an
    /// `Option`'s `replace(v)`, `mem::replace(..)` are no such method).
    StrMethod,
    /// A rejection (`contains_key`, `Occupied`), only where the text around
    /// it fails and inserts ([`crate::syntax::rejection::rejection_in_context`]).
    Rejection,
}

/// Every name list the analysis uses, after configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vocabulary {
    /// Canonical platform names, as written in the configuration.
    pub canonical: Vec<String>,
    /// Alias -> the canonical platforms it stands for.
    pub aliases: Vec<(String, Vec<String>)>,
    /// Functions and methods whose result is a canonical platform.
    pub(super) canonicalizers: NameSet,
    /// [`Names::PlatformVariants`], made from `canonical`.
    pub(super) platform_variants: NameSet,
    /// Methods (without arguments), fields and functions giving a raw platform name.
    pub(super) sources: NameSet,
    pub(super) functions: Vec<Function>,
    /// The registration functions learned from the code, after the
    /// configured ones ([`Self::with_learned`]): exact names, found by name
    /// (a file may teach ten thousand wrappers, and the walk asks about
    /// every call).
    pub(super) learned: LearnedFunctions,
    /// `register_lowering(primitive, rule, platform)`-shaped registrations.
    pub(super) lowering_registrations: NameSet,
    /// Registrations keyed by the platform a backend serves.
    pub(super) backends: NameSet,
    /// `is_registered(key)`-style checks that make a registration conditional.
    pub(super) guards: NameSet,
    /// Calls that remove a registration.
    pub(super) unregister: NameSet,
    /// Methods whose closure runs at most once (`get_or_init`).
    pub(super) run_once: NameSet,
    /// Lowering calls (`lower(&ctx, &["cuda"])`).
    pub(super) lowering_calls: NameSet,
    /// Methods that give a lowering context its backend (`with_backend`).
    pub(super) backend_setters: NameSet,
    /// Calls that ask for a platform's backend (`get_backend("cpu")`).
    pub(super) backend_requests: NameSet,
    /// Report raw platform comparisons in test code too.
    pub check_tests: bool,
    /// Report duplicate registrations within test code too.
    pub check_test_registrations: bool,
    /// Checks that reject a key already present (`map.contains_key(k)`,
    /// `Entry::Occupied`): a function doing so before inserting registers.
    pub(super) rejections: NameSet,
    /// Fields that turn a learned registration's rejection off
    /// (`if !self.allow_shadowing && ..`), learned from the code.
    pub(super) switch_fields: NameSet,
    /// Methods that set such a field: after one, the receiver accepts
    /// duplicates. Learned from the code.
    pub(super) switches: NameSet,
    /// [`Names::Singletons`]: not configured, learned.
    pub(super) singletons: NameSet,
    /// Singletons learned under everyday names (`run`, `set`): their calls
    /// are recorded where a body is read, but no file is read for them.
    pub(super) everyday_singletons: Vec<String>,
    /// The stems of the names a function summary records, searched for at
    /// once ([`Self::learning_matcher`]): built when first asked for, dropped by a clone (which the
    /// learning then changes).
    pub learning_matcher: LearningMatcher,
}

/// [`Vocabulary::learned`]: the learned registration functions in the
/// order learned, and where each name is among them. Shared by the clones
/// of a vocabulary, which then compare equal at once (the fast path keeps
/// the vocabulary its filter was made for, and compares it for each body).
#[derive(Debug, Clone, Default)]
pub(super) struct LearnedFunctions(Arc<LearnedList>);

#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct LearnedList {
    list: Vec<Function>,
    by_name: HashMap<String, Vec<usize>>,
    /// What their names start with ([`Vocabulary::firsts`], asked for each file).
    firsts: FirstBytes,
}

impl PartialEq for LearnedFunctions {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0 == other.0
    }
}

impl Eq for LearnedFunctions {}

impl LearnedFunctions {
    fn push(&mut self, f: Function) {
        let learned = Arc::make_mut(&mut self.0);
        let at = learned.list.len();
        (learned.by_name.entry(f.pattern.stem.clone()).or_default()).push(at);
        (learned.firsts).add(&FirstBytes::of(std::iter::once(f.pattern.stem.as_str())));
        learned.list.push(f);
    }

    pub(super) fn list(&self) -> &[Function] {
        &self.0.list
    }

    /// The functions learned under `name`, in the order learned.
    fn named(&self, name: &str) -> impl Iterator<Item = &Function> {
        (self.0.by_name.get(name).into_iter().flatten()).map(|&i| &self.0.list[i])
    }
}

/// [`Vocabulary::learning_matcher`]: no part of what a vocabulary is (equal
/// to any other, empty when cloned).
#[derive(Default)]
pub struct LearningMatcher(std::sync::OnceLock<Option<aho_corasick::AhoCorasick>>);

impl Clone for LearningMatcher {
    fn clone(&self) -> Self {
        LearningMatcher::default()
    }
}

impl PartialEq for LearningMatcher {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for LearningMatcher {}

impl std::fmt::Debug for LearningMatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LearningMatcher")
    }
}

impl Default for Vocabulary {
    fn default() -> Self {
        Vocabulary {
            canonical: CANONICAL.iter().map(|s| s.to_string()).collect(),
            aliases: ALIASES
                .iter()
                .map(|(a, t)| (a.to_string(), t.iter().map(|s| s.to_string()).collect()))
                .collect(),
            canonicalizers: NameSet::builtin(CANONICALIZERS),
            platform_variants: platform_variants(CANONICAL.iter().copied()),
            sources: NameSet::builtin(SOURCES),
            functions: FUNCTIONS
                .iter()
                .map(|(n, key)| Function {
                    pattern: Pattern::parse(n).expect("built-in names are valid"),
                    key: key.to_vec(),
                    receiver: CallReceiver::Written,
                    arity: None,
                    switch: None,
                    constants: Vec::new(),
                    returns_self: false,
                    key_field: None,
                    wraps: None,
                })
                .collect(),
            learned: LearnedFunctions::default(),
            lowering_registrations: NameSet::builtin(LOWERING_REGISTRATIONS),
            backends: NameSet::builtin(BACKENDS),
            guards: NameSet::builtin(GUARDS),
            unregister: NameSet::builtin(UNREGISTER),
            run_once: NameSet::builtin(RUN_ONCE),
            lowering_calls: NameSet::builtin(LOWERING_CALLS),
            backend_setters: NameSet::builtin(BACKEND_SETTERS),
            backend_requests: NameSet::builtin(BACKEND_REQUESTS),
            check_tests: false,
            check_test_registrations: false,
            rejections: NameSet::builtin(REJECTIONS),
            switch_fields: NameSet::default(),
            switches: NameSet::default(),
            singletons: NameSet::default(),
            everyday_singletons: Vec::new(),
            learning_matcher: LearningMatcher::default(),
        }
    }
}

impl Vocabulary {
    /// The arguments that key a registration made by `name`, or `None` when
    /// `name` is not a registration function. The most specific pattern wins.
    pub fn registration_key(&self, name: &str) -> Option<&[usize]> {
        self.function_for(name, None).map(|f| f.key.as_slice())
    }

    /// The registration function a call of `name` with `arity` arguments
    /// (the receiver not counted) calls, if any: a learned one only with
    /// as many parameters; the most specific pattern wins, and of equally
    /// specific ones the last (a learned name over a configured one).
    fn function_for(&self, name: &str, arity: Option<usize>) -> Option<&Function> {
        if (self.functions.iter()).any(|f| f.pattern.exclude && f.pattern.matches(name)) {
            return None;
        }
        let arity_fits = |f: &&Function| f.arity.is_none() || arity.is_none() || f.arity == arity;
        // A learned name is exact: more specific than any prefix, and after
        // every configured name.
        let learned = self.learned.named(name).filter(arity_fits).last();
        learned.or_else(|| self.configured_for(name, arity))
    }

    /// The configured (or built-in) registration function a call of `name`
    /// with `arity` arguments matches, learned ones aside: the most specific
    /// pattern. Exclusions are [`Self::function_for`]'s.
    fn configured_for(&self, name: &str, arity: Option<usize>) -> Option<&Function> {
        let arity_fits = |f: &&Function| f.arity.is_none() || arity.is_none() || f.arity == arity;
        (self.functions.iter())
            .filter(|f| !f.pattern.exclude && f.pattern.matches(name))
            .filter(arity_fits)
            .max_by_key(|f| f.pattern.specificity())
    }

    /// Whether a call of `name` with `arity` arguments is a registration by
    /// the built-in vocabulary alone (`register*`): no learned function and
    /// no configured name other than a built-in one matches it. The body a
    /// call reaches decides before such a name (issue 28).
    pub fn registration_is_builtin(&self, name: &str, arity: Option<usize>) -> bool {
        self.learned.named(name).next().is_none() && self.configured_is_builtin(name, arity)
    }

    /// Whether the configured name a call of `name` matches, learned ones
    /// aside, is a built-in one (`register*`), not one the user wrote.
    pub fn configured_is_builtin(&self, name: &str, arity: Option<usize>) -> bool {
        if (self.functions.iter()).any(|f| f.pattern.exclude && f.pattern.matches(name)) {
            return false;
        }
        let Some(f) = self.configured_for(name, arity) else {
            return false;
        };
        (FUNCTIONS.iter()).any(|(n, key)| {
            Pattern::parse(n).is_ok_and(|p| p == f.pattern) && f.key.as_slice() == *key
        })
    }

    /// [`Self::registration_key`] of a call with `arity` arguments.
    pub fn registration_key_with(&self, name: &str, arity: Option<usize>) -> Option<&[usize]> {
        self.function_for(name, arity).map(|f| f.key.as_slice())
    }

    /// On which registry a call of the registration function `name` with
    /// `arity` arguments registers.
    pub fn registration_receiver_with(&self, name: &str, arity: Option<usize>) -> CallReceiver {
        self.function_for(name, arity)
            .map_or(CallReceiver::Written, |f| f.receiver)
    }

    /// The constant keys a call with `arity` arguments of the learned
    /// helper `name` registers ([`LearnedFunction::constants`]).
    pub fn registration_constants(&self, name: &str, arity: Option<usize>) -> &[ConstantKey] {
        self.function_for(name, arity)
            .map_or(&[], |f| f.constants.as_slice())
    }

    /// The field of the value given that a learned function's key is
    /// ([`LearnedFunction::key_field`]).
    pub fn registration_key_field(&self, name: &str, arity: Option<usize>) -> Option<&str> {
        self.function_for(name, arity)
            .and_then(|f| f.key_field.as_deref())
    }

    /// The keys a learned factory's result holds ([`CallReceiver::Returned`]).
    pub fn registration_factory(&self, name: &str, arity: Option<usize>) -> &[ConstantKey] {
        self.function_for(name, arity)
            .filter(|f| f.receiver == CallReceiver::Returned)
            .map_or(&[], |f| f.constants.as_slice())
    }

    /// The argument a call with `arity` arguments of the learned `name`
    /// must write `false` to register ([`LearnedFunction::switch`]).
    pub fn registration_switch(&self, name: &str, arity: Option<usize>) -> Option<usize> {
        self.function_for(name, arity).and_then(|f| f.switch)
    }

    /// Whether a call with `arity` arguments of the learned method `name`
    /// hands its receiver back ([`LearnedFunction::returns_self`]).
    pub fn registration_returns_self(&self, name: &str, arity: Option<usize>) -> bool {
        self.function_for(name, arity)
            .is_some_and(|f| f.returns_self)
    }

    /// This vocabulary with what a crate's code taught: registration
    /// functions, the fields that switch their rejection off and the
    /// methods that set those fields. A learned name is exact, so it is
    /// more specific than any configured prefix.
    pub fn with_learned(
        &self,
        functions: &[LearnedFunction],
        switch_fields: &[String],
        switches: &[String],
    ) -> Vocabulary {
        let mut vocab = self.clone();
        let exact = |name: &str| {
            Pattern::parse(name)
                .ok()
                .filter(|p| !p.prefix && !p.exclude)
        };
        for f in functions {
            if let Some(pattern) = exact(&f.name) {
                vocab.learned.push(Function {
                    pattern,
                    key: f.key.clone(),
                    receiver: f.receiver,
                    arity: Some(f.arity),
                    switch: f.switch,
                    constants: f.constants.clone(),
                    returns_self: f.returns_self,
                    key_field: f.key_field.clone(),
                    wraps: f.wraps.clone(),
                });
            }
        }
        let set = |names: &[String]| NameSet::new(names.iter().filter_map(|n| exact(n)).collect());
        vocab.switch_fields = set(switch_fields);
        vocab.switches = set(switches);
        vocab
    }

    /// This vocabulary with the singletons a crate's code taught (issue
    /// 29): a file calling one is read for its calls.
    pub fn with_singletons(&self, names: &[String], everyday: &[String]) -> Vocabulary {
        let mut vocab = self.clone();
        let all: Vec<Pattern> = (names.iter())
            .filter_map(|n| Pattern::parse(n).ok().filter(|p| !p.prefix && !p.exclude))
            .collect();
        vocab.singletons = NameSet::new(all);
        vocab.everyday_singletons = everyday.to_vec();
        vocab
    }

    /// Whether a call of `name` is one of a learned singleton's, of any
    /// name (those [`Names::Singletons`] leaves out included).
    pub fn calls_singleton(&self, name: &str) -> bool {
        self.has(Names::Singletons, name) || self.everyday_singletons.iter().any(|n| n == name)
    }

    /// The set `names` stands for.
    fn set(&self, names: Names) -> Option<&NameSet> {
        Some(match names {
            Names::RegistrationFunctions | Names::PlatformsField | Names::Normalizers => {
                return None;
            }
            Names::LoweringRegistrations => &self.lowering_registrations,
            Names::Backends => &self.backends,
            Names::Guards => &self.guards,
            Names::Unregister => &self.unregister,
            Names::RunOnce => &self.run_once,
            Names::Sources => &self.sources,
            Names::Canonicalizers => &self.canonicalizers,
            Names::LoweringCalls => &self.lowering_calls,
            Names::BackendSetters => &self.backend_setters,
            Names::BackendRequests => &self.backend_requests,
            Names::Rejections => &self.rejections,
            Names::SwitchFields => &self.switch_fields,
            Names::Switches => &self.switches,
            Names::PlatformVariants => &self.platform_variants,
            Names::Singletons => &self.singletons,
        })
    }

    /// Whether `name` is one of `names`.
    pub fn has(&self, names: Names, name: &str) -> bool {
        match names {
            Names::RegistrationFunctions => self.registration_key(name).is_some(),
            Names::PlatformsField => name == PLATFORMS_FIELD,
            Names::Normalizers => NORMALIZERS.contains(&name),
            _ => self.set(names).is_some_and(|s| s.contains(name)),
        }
    }

    /// This vocabulary with `names` made of `patterns` (not the
    /// registration functions, nor the field `platforms`).
    #[cfg(test)]
    pub(crate) fn with_set(mut self, names: Names, patterns: &[&str]) -> Vocabulary {
        let set = NameSet::builtin(patterns);
        match names {
            Names::LoweringRegistrations => self.lowering_registrations = set,
            Names::Backends => self.backends = set,
            Names::Guards => self.guards = set,
            Names::Unregister => self.unregister = set,
            Names::RunOnce => self.run_once = set,
            Names::Sources => self.sources = set,
            Names::Canonicalizers => self.canonicalizers = set,
            Names::LoweringCalls => self.lowering_calls = set,
            Names::BackendSetters => self.backend_setters = set,
            Names::BackendRequests => self.backend_requests = set,
            Names::Rejections => self.rejections = set,
            Names::SwitchFields => self.switch_fields = set,
            Names::Switches => self.switches = set,
            Names::PlatformVariants => self.platform_variants = set,
            Names::Singletons => self.singletons = set,
            Names::RegistrationFunctions | Names::PlatformsField | Names::Normalizers => {
                unreachable!("{names:?} is no set of its own")
            }
        }
        self
    }

    /// The names and prefixes of `names` (exclusions left out): every name
    /// [`Self::has`] finds in it starts with one of them.
    pub fn stems(&self, names: Names) -> Vec<&str> {
        match names {
            Names::RegistrationFunctions => self.function_stems().collect(),
            Names::PlatformsField => vec![PLATFORMS_FIELD],
            Names::Normalizers => NORMALIZERS.to_vec(),
            _ => self.set(names).map_or(Vec::new(), |s| s.stems().collect()),
        }
    }

    /// The bytes the names of `names` start with.
    pub fn firsts(&self, names: Names) -> FirstBytes {
        match names {
            Names::RegistrationFunctions => {
                let configured = self.functions.iter().filter(|f| !f.pattern.exclude);
                let mut firsts = FirstBytes::of(configured.map(|f| f.pattern.stem.as_str()));
                firsts.add(&self.learned.0.firsts);
                firsts
            }
            Names::PlatformsField => FirstBytes::of([PLATFORMS_FIELD].into_iter()),
            Names::Normalizers => FirstBytes::of(NORMALIZERS.iter().copied()),
            _ => self
                .set(names)
                .map_or_else(FirstBytes::default, |s| s.firsts),
        }
    }

    /// A plain name of `names` (no prefix, no exclusion), for messages.
    pub fn first_name(&self, names: Names) -> Option<&str> {
        self.set(names).and_then(NameSet::first_name)
    }

    /// An automaton finding `stems`, built at the first call and kept with
    /// this vocabulary: every call must give the same stems, those of the
    /// function summaries' declaration (`analysis::extract::summary`, the
    /// only caller). `None` when a stem is empty (a pattern `*`: every word
    /// may be one).
    pub fn learning_matcher<'s>(
        &self,
        stems: impl FnOnce() -> Vec<&'s str>,
    ) -> Option<&aho_corasick::AhoCorasick> {
        self.learning_matcher
            .0
            .get_or_init(|| {
                let stems = stems();
                if stems.iter().any(|s| s.is_empty()) {
                    return None;
                }
                aho_corasick::AhoCorasick::builder()
                    .match_kind(aho_corasick::MatchKind::LeftmostFirst)
                    .kind(Some(aho_corasick::AhoCorasickKind::ContiguousNFA))
                    .build(&stems)
                    .ok()
            })
            .as_ref()
    }

    /// The names and prefixes of the registration functions (exclusions left
    /// out): every name [`Self::registration_key`] knows starts with one.
    fn function_stems(&self) -> impl Iterator<Item = &str> {
        (self.functions.iter().chain(self.learned.list()))
            .filter(|f| !f.pattern.exclude)
            .map(|f| f.pattern.stem.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_specific_registration_function_gives_the_key() {
        let mut v = Vocabulary::default();
        v.functions.push(Function {
            pattern: Pattern::parse("register_handler").unwrap(),
            key: vec![0, 1],
            receiver: CallReceiver::Written,
            arity: None,
            switch: None,
            constants: Vec::new(),
            returns_self: false,
            key_field: None,
            wraps: None,
        });
        assert_eq!(v.registration_key("register_backend"), Some(&[0][..]));
        assert_eq!(v.registration_key("register_handler"), Some(&[0, 1][..]));
        assert_eq!(v.registration_key("registered_backends"), None);
        assert_eq!(v.registration_key("add"), None);
    }
}
