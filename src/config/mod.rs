//! Configuration: where it is found, what it may say, and the vocabulary
//! (platform names, registration functions, ...) the lints read from it.
//!
//! Sources, the nearest to the analysed code winning whole (no merging, as
//! ruff does): `--config PATH`; else, walking up from the package root (or
//! the file's folder), the first folder that has `backend-lint.toml`,
//! `.backend-lint.toml`, or a `Cargo.toml` with
//! `[package.metadata.backend-lint]` or `[workspace.metadata.backend-lint]`
//! (in that order within one folder); else the built-in defaults.
//! Command-line levels (`-A/-W/-D`) apply over whichever was found.

pub mod init;
pub mod platform;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use toml::Spanned;

pub use crate::model::lint_id::Level;
use crate::model::lint_id::{LintId, without_tool};
use crate::model::typo::closest_lint;

/// File names of a configuration of its own, in order of precedence.
pub const CONFIG_FILES: &[&str] = &["backend-lint.toml", ".backend-lint.toml"];

// ---------------------------------------------------------------------------
// The file format

type NameList = Option<Vec<Spanned<String>>>;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawConfig {
    exclude: NameList,
    per_file_ignores: Option<BTreeMap<Spanned<String>, Vec<Spanned<String>>>>,
    lints: Option<BTreeMap<Spanned<String>, Level>>,
    platforms: Option<RawPlatforms>,
    registration: Option<RawRegistration>,
    lowering: Option<RawLowering>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawPlatforms {
    canonical: NameList,
    extend_canonical: NameList,
    aliases: Option<BTreeMap<Spanned<String>, Vec<Spanned<String>>>>,
    extend_aliases: Option<BTreeMap<Spanned<String>, Vec<Spanned<String>>>>,
    canonicalizers: NameList,
    extend_canonicalizers: NameList,
    sources: NameList,
    extend_sources: NameList,
    check_tests: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawRegistration {
    functions: Option<Vec<RawFunction>>,
    extend_functions: Option<Vec<RawFunction>>,
    lowering: NameList,
    extend_lowering: NameList,
    backends: NameList,
    extend_backends: NameList,
    guards: NameList,
    extend_guards: NameList,
    unregister: NameList,
    extend_unregister: NameList,
    run_once: NameList,
    extend_run_once: NameList,
    check_tests: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFunction {
    name: Spanned<String>,
    #[serde(default)]
    key: Option<Spanned<KeySpec>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum KeySpec {
    One(usize),
    Many(Vec<usize>),
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawLowering {
    calls: NameList,
    extend_calls: NameList,
    backend_setters: NameList,
    extend_backend_setters: NameList,
    backend_requests: NameList,
    extend_backend_requests: NameList,
}

/// `Cargo.toml`, read only for our metadata tables.
#[derive(Debug, Deserialize)]
struct Manifest {
    package: Option<MetadataHolder>,
    workspace: Option<MetadataHolder>,
}

#[derive(Debug, Deserialize)]
struct MetadataHolder {
    metadata: Option<Metadata>,
}

#[derive(Debug, Deserialize)]
struct Metadata {
    #[serde(rename = "backend-lint")]
    backend_lint: Option<RawConfig>,
}

// ---------------------------------------------------------------------------
// Built-in vocabulary

const CANONICAL: &[&str] = &["cpu", "tpu", "cuda", "rocm", "oneapi", "metal"];
const ALIASES: &[(&str, &[&str])] = &[("gpu", &["cuda", "rocm", "oneapi"])];
const CANONICALIZERS: &[&str] = &["canonicalize_platform"];
const SOURCES: &[&str] = &["platform", "platform_name"];
/// Every `register*` call is a registration keyed by its first argument;
/// `registered*` are queries (`registered_backends()`). FFI handlers and
/// custom-call targets are registered once per platform: PJRT's
/// `register_handler(target, platform, ..)` (pjrt-rs; ryft's
/// `register_ffi_handler`), XLA's `register_custom_call_target(name, f, platform)`.
const FUNCTIONS: &[(&str, &[usize])] = &[
    ("register*", &[0]),
    ("!registered*", &[]),
    ("register_handler", &[0, 1]),
    ("register_ffi_handler", &[0, 1]),
    ("register_custom_call_target", &[0, 2]),
];
const LOWERING_REGISTRATIONS: &[&str] = &["register_lowering"];
const BACKENDS: &[&str] = &[
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
const REJECTIONS: &[&str] = &[
    "contains_key",
    "Occupied",
    "contains",
    "insert",
    "is_some",
    "is_none",
];

const GUARDS: &[&str] = &[
    "is_registered",
    "contains",
    "contains_key",
    "has_backend",
    "is_initialized",
];
const UNREGISTER: &[&str] = &[
    "unregister*",
    "deregister*",
    "remove",
    "remove_entry",
    "take",
];
const RUN_ONCE: &[&str] = &[
    "get_or_init",
    "get_or_try_init",
    "get_or_insert_with",
    "call_once",
    "call_once_force",
];
const LOWERING_CALLS: &[&str] = &["lower", "lower_*", "!lower_bound"];
const BACKEND_SETTERS: &[&str] = &["with_backend", "replace_backend", "set_backend"];
const BACKEND_REQUESTS: &[&str] = &["get_backend"];

// ---------------------------------------------------------------------------
// Name patterns

/// One name pattern: `name`, `prefix*`, and `!` in front to exclude.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Pattern {
    text: String,
    exclude: bool,
    /// The name, or the prefix when `prefix`.
    stem: String,
    prefix: bool,
}

impl Pattern {
    fn parse(text: &str) -> Result<Pattern, String> {
        let (exclude, rest) = match text.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (prefix, stem) = match rest.strip_suffix('*') {
            Some(stem) => (true, stem),
            None => (false, rest),
        };
        if stem.is_empty() && !prefix {
            return Err("a name cannot be empty".into());
        }
        if let Some(c) = stem.chars().find(|c| !(c.is_alphanumeric() || *c == '_')) {
            return Err(format!(
                "`{text}` is not a name: `{c}` is not allowed (a name, `prefix*`, or `!` in front to exclude)"
            ));
        }
        Ok(Pattern {
            text: text.to_string(),
            exclude,
            stem: stem.to_string(),
            prefix,
        })
    }

    fn matches(&self, name: &str) -> bool {
        // Most names the walk asks about differ at the first byte: tell them
        // apart without a call to compare the rest.
        if let Some(&first) = self.stem.as_bytes().first()
            && name.as_bytes().first() != Some(&first)
        {
            return false;
        }
        if self.prefix {
            name.starts_with(&self.stem)
        } else {
            name == self.stem
        }
    }

    /// Exact names are more specific than prefixes, longer prefixes than shorter.
    fn specificity(&self) -> usize {
        if self.prefix {
            self.stem.len()
        } else {
            usize::MAX
        }
    }
}

/// A set of first bytes: what the names of a set can start with.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FirstBytes([u64; 4]);

impl FirstBytes {
    /// The first bytes of `stems`; every byte when one is empty (an empty
    /// prefix matches every name).
    fn of<'a>(stems: impl Iterator<Item = &'a str>) -> FirstBytes {
        let mut firsts = FirstBytes::default();
        for stem in stems {
            match stem.as_bytes().first() {
                Some(&b) => firsts.0[usize::from(b >> 6)] |= 1 << (b & 63),
                None => firsts = FirstBytes([u64::MAX; 4]),
            }
        }
        firsts
    }

    pub fn add(&mut self, other: &FirstBytes) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
    }

    /// Whether `name` may be in the set: it starts with one of the bytes.
    /// An empty name may be only through an empty prefix.
    pub fn admits(&self, name: &str) -> bool {
        let b = name.as_bytes().first().copied();
        match b {
            Some(b) => self.0[usize::from(b >> 6)] & (1 << (b & 63)) != 0,
            None => self.0 == [u64::MAX; 4],
        }
    }
}

/// A set of names: patterns included, minus patterns excluded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NameSet {
    patterns: Vec<Pattern>,
    /// The first bytes the included names and prefixes start with: a name
    /// starting with another byte is not in the set, which is most names
    /// the walk asks about.
    firsts: FirstBytes,
}

impl NameSet {
    fn new(patterns: Vec<Pattern>) -> NameSet {
        let firsts = FirstBytes::of(
            patterns
                .iter()
                .filter(|p| !p.exclude)
                .map(|p| p.stem.as_str()),
        );
        NameSet { patterns, firsts }
    }

    fn builtin(names: &[&str]) -> NameSet {
        NameSet::new(
            names
                .iter()
                .map(|n| Pattern::parse(n).expect("built-in names are valid"))
                .collect(),
        )
    }

    pub fn contains(&self, name: &str) -> bool {
        if !self.firsts.admits(name) {
            return false;
        }
        self.patterns.iter().any(|p| !p.exclude && p.matches(name))
            && !self.patterns.iter().any(|p| p.exclude && p.matches(name))
    }

    /// The names as written, for `backend-lint config`.
    pub fn texts(&self) -> Vec<String> {
        self.patterns.iter().map(|p| p.text.clone()).collect()
    }

    /// The names and prefixes included (exclusions left out): every name the
    /// set contains starts with one of them. For the text prefilter.
    pub fn stems(&self) -> impl Iterator<Item = &str> {
        self.patterns
            .iter()
            .filter(|p| !p.exclude)
            .map(|p| p.stem.as_str())
    }

    /// The plain names (no prefix, no exclusion): what a text prefilter or a
    /// message may quote.
    pub fn first_name(&self) -> Option<&str> {
        self.patterns
            .iter()
            .find(|p| !p.exclude && !p.prefix)
            .map(|p| p.stem.as_str())
    }
}

/// A registration function and the arguments that make up its key.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Function {
    pattern: Pattern,
    key: Vec<usize>,
    receiver: CallReceiver,
    /// A learned function's number of parameters (`self` not counted): it
    /// is called with as many arguments. Two types of a package may each
    /// have a `func_wrap`, with different keys.
    arity: Option<usize>,
    /// A learned function's argument that must be written `false` for the
    /// call to reject a second key ([`LearnedFunction::switch`]).
    switch: Option<usize>,
    /// A learned helper's constant keys ([`LearnedFunction::constants`]).
    constants: Vec<ConstantKey>,
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
    /// The field `platforms` of a lowering context: a fixed name, not
    /// configured.
    PlatformsField,
}

impl Names {
    /// A set the configuration names (or the learning adds to), not the
    /// field `platforms`, a fixed name: a function so named is no known
    /// name, nor a local macro naming it one worth expanding.
    pub fn is_configured(self) -> bool {
        self != Names::PlatformsField
    }

    /// Every set.
    #[cfg(test)]
    pub const ALL: [Names; 15] = [
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
        Names::PlatformsField,
    ];
}

/// The field holding a lowering context's platforms ([`Names::PlatformsField`]).
pub const PLATFORMS_FIELD: &str = "platforms";

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
    canonicalizers: NameSet,
    /// Methods (without arguments), fields and functions giving a raw platform name.
    sources: NameSet,
    functions: Vec<Function>,
    /// The registration functions learned from the code, after the
    /// configured ones ([`Self::with_learned`]): exact names, found by name
    /// (a file may teach ten thousand wrappers, and the walk asks about
    /// every call).
    learned: LearnedFunctions,
    /// `register_lowering(primitive, rule, platform)`-shaped registrations.
    lowering_registrations: NameSet,
    /// Registrations keyed by the platform a backend serves.
    backends: NameSet,
    /// `is_registered(key)`-style checks that make a registration conditional.
    guards: NameSet,
    /// Calls that remove a registration.
    unregister: NameSet,
    /// Methods whose closure runs at most once (`get_or_init`).
    run_once: NameSet,
    /// Lowering calls (`lower(&ctx, &["cuda"])`).
    lowering_calls: NameSet,
    /// Methods that give a lowering context its backend (`with_backend`).
    backend_setters: NameSet,
    /// Calls that ask for a platform's backend (`get_backend("cpu")`).
    backend_requests: NameSet,
    /// Report raw platform comparisons in test code too.
    pub check_tests: bool,
    /// Report duplicate registrations within test code too.
    pub check_test_registrations: bool,
    /// Checks that reject a key already present (`map.contains_key(k)`,
    /// `Entry::Occupied`): a function doing so before inserting registers.
    rejections: NameSet,
    /// Fields that turn a learned registration's rejection off
    /// (`if !self.allow_shadowing && ..`), learned from the code.
    switch_fields: NameSet,
    /// Methods that set such a field: after one, the receiver accepts
    /// duplicates. Learned from the code.
    switches: NameSet,
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
struct LearnedFunctions(Arc<LearnedList>);

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

    fn list(&self) -> &[Function] {
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
        learned.or_else(|| {
            (self.functions.iter())
                .filter(|f| !f.pattern.exclude && f.pattern.matches(name))
                .filter(arity_fits)
                .max_by_key(|f| f.pattern.specificity())
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

    /// The argument a call with `arity` arguments of the learned `name`
    /// must write `false` to register ([`LearnedFunction::switch`]).
    pub fn registration_switch(&self, name: &str, arity: Option<usize>) -> Option<usize> {
        self.function_for(name, arity).and_then(|f| f.switch)
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
                });
            }
        }
        let set = |names: &[String]| NameSet::new(names.iter().filter_map(|n| exact(n)).collect());
        vocab.switch_fields = set(switch_fields);
        vocab.switches = set(switches);
        vocab
    }

    /// The set `names` stands for.
    fn set(&self, names: Names) -> Option<&NameSet> {
        Some(match names {
            Names::RegistrationFunctions | Names::PlatformsField => return None,
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
        })
    }

    /// Whether `name` is one of `names`.
    pub fn has(&self, names: Names, name: &str) -> bool {
        match names {
            Names::RegistrationFunctions => self.registration_key(name).is_some(),
            Names::PlatformsField => name == PLATFORMS_FIELD,
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
            Names::RegistrationFunctions | Names::PlatformsField => {
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

// ---------------------------------------------------------------------------
// A resolved configuration

/// Where a configuration came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    Builtin,
    File(PathBuf),
    PackageMetadata(PathBuf),
    WorkspaceMetadata(PathBuf),
}

impl Origin {
    pub fn describe(&self) -> String {
        match self {
            Origin::Builtin => "built-in defaults (no configuration found)".into(),
            Origin::File(p) => format!("{}", p.display()),
            Origin::PackageMetadata(p) => {
                format!("{} [package.metadata.backend-lint]", p.display())
            }
            Origin::WorkspaceMetadata(p) => {
                format!("{} [workspace.metadata.backend-lint]", p.display())
            }
        }
    }

    /// The folder exclude patterns are relative to.
    fn dir(&self) -> Option<&Path> {
        match self {
            Origin::Builtin => None,
            Origin::File(p) | Origin::PackageMetadata(p) | Origin::WorkspaceMetadata(p) => {
                p.parent()
            }
        }
    }
}

/// Lint levels given on the command line, in the order given (later wins).
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// `(lint name or "warnings", level)`.
    pub levels: Vec<(String, Level)>,
    /// `--config PATH`.
    pub config: Option<PathBuf>,
    /// `--select`: only these lints run (every lint when empty).
    pub select: Vec<String>,
}

impl Overrides {
    /// Check the names given to `-A/-W/-D`: lint names (also as
    /// `backend_lint::name`) or `warnings`.
    pub fn validate(&self) -> Result<(), String> {
        for (name, _) in &self.levels {
            if name != "warnings" && LintId::from_written(name).is_none() {
                return Err(unknown_lint_message(name));
            }
        }
        for name in &self.select {
            if name.is_empty() {
                return Err("--select: a lint name is empty".into());
            }
            if LintId::from_written(name).is_none() {
                return Err(format!("--select: {}", unknown_lint_message(name)));
            }
        }
        Ok(())
    }

    /// The lints `--select` names; `None` without `--select`.
    fn selected(&self) -> Option<Vec<LintId>> {
        (!self.select.is_empty()).then(|| {
            (self.select.iter())
                .filter_map(|n| LintId::from_written(n))
                .collect()
        })
    }
}

fn unknown_lint_message(name: &str) -> String {
    if let Some(near) = closest_lint(without_tool(name)) {
        return format!("no lint named `{name}`: did you mean `{near}`?");
    }
    let names: Vec<&str> = LintId::names().collect();
    format!(
        "no lint named `{name}` (the lints are: {})",
        names.join(", ")
    )
}

/// The configuration that applies to one crate.
#[derive(Debug, Clone)]
pub struct Config {
    pub vocab: Vocabulary,
    /// Indexed by [`LintId::index`].
    levels: [Level; LintId::COUNT],
    exclude: Vec<(String, globset::GlobMatcher)>,
    per_file_ignores: Vec<PerFileIgnore>,
    pub origin: Origin,
}

/// One entry of `[per-file-ignores]`: lints not reported in the files a
/// glob matches.
#[derive(Debug, Clone)]
struct PerFileIgnore {
    pattern: String,
    glob: globset::GlobMatcher,
    /// A pattern without `/` also matches a file's name, wherever it is
    /// (ruff's `"__init__.py" = [..]`).
    name_too: bool,
    lints: Vec<LintId>,
}

impl Default for Config {
    fn default() -> Self {
        Config::from_raw(RawConfig::default(), Origin::Builtin, &Overrides::default())
            .expect("the built-in configuration is valid")
    }
}

impl Config {
    /// The level of a lint.
    pub fn level(&self, lint: LintId) -> Level {
        self.levels[lint.index()]
    }

    /// Built-in defaults with command-line levels.
    pub fn builtin(overrides: &Overrides) -> Config {
        Config::from_raw(RawConfig::default(), Origin::Builtin, overrides)
            .expect("the built-in configuration is valid")
    }

    /// Read one configuration file (`backend-lint.toml` or a `Cargo.toml`
    /// with our metadata). `Ok(None)`: a `Cargo.toml` without it.
    pub fn load(path: &Path, overrides: &Overrides) -> Result<Option<Config>, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            path: path.to_path_buf(),
            text: String::new(),
            span: None,
            message: format!("cannot read the configuration: {e}"),
        })?;
        let error = |span: Option<std::ops::Range<usize>>, message: String| ConfigError {
            path: path.to_path_buf(),
            text: text.clone(),
            span,
            message,
        };
        let is_manifest = path.file_name().is_some_and(|n| n == "Cargo.toml");
        let (raw, origin) = if is_manifest {
            let manifest: Manifest = match toml::from_str(&text) {
                Ok(m) => m,
                // A manifest we cannot read without our table is cargo's business.
                Err(_) if !text.contains("backend-lint") => return Ok(None),
                Err(e) => return Err(error(e.span(), describe_toml_error(&e, &text))),
            };
            let package = manifest
                .package
                .and_then(|p| p.metadata)
                .and_then(|m| m.backend_lint);
            let workspace = manifest
                .workspace
                .and_then(|p| p.metadata)
                .and_then(|m| m.backend_lint);
            match (package, workspace) {
                (Some(raw), _) => (raw, Origin::PackageMetadata(path.to_path_buf())),
                (None, Some(raw)) => (raw, Origin::WorkspaceMetadata(path.to_path_buf())),
                (None, None) => return Ok(None),
            }
        } else {
            let raw: RawConfig = toml::from_str(&text)
                .map_err(|e| error(e.span(), describe_toml_error(&e, &text)))?;
            (raw, Origin::File(path.to_path_buf()))
        };
        Config::from_raw(raw, origin, overrides)
            .map(Some)
            .map_err(|(span, message)| error(span, message))
    }

    fn from_raw(raw: RawConfig, origin: Origin, overrides: &Overrides) -> Result<Config, Invalid> {
        let mut levels = LintId::ALL.map(LintId::default_level);
        for (name, level) in raw.lints.unwrap_or_default() {
            let Some(id) = LintId::from_name(name.get_ref()) else {
                return Err((Some(name.span()), unknown_lint_message(name.get_ref())));
            };
            levels[id.index()] = level;
        }
        // `--select` asks for its lints, as ruff's enables its rules: one
        // the configuration allows runs at its default level. Then -A/-W/-D
        // set the levels, and the lints not selected are off whatever they
        // say.
        let selected = overrides.selected();
        for &id in selected.iter().flatten() {
            if levels[id.index()] == Level::Allow {
                levels[id.index()] = id.default_level();
            }
        }
        let mut warnings = None;
        for (name, level) in &overrides.levels {
            if name == "warnings" {
                warnings = Some(*level);
            } else if let Some(id) = LintId::from_written(name) {
                levels[id.index()] = *level;
            }
        }
        if let Some(w) = warnings {
            for slot in levels.iter_mut().filter(|l| **l == Level::Warn) {
                *slot = w;
            }
        }
        if let Some(selected) = &selected {
            for id in LintId::ALL.into_iter().filter(|id| !selected.contains(id)) {
                levels[id.index()] = Level::Allow;
            }
        }

        let platforms = raw.platforms.unwrap_or_default();
        let registration = raw.registration.unwrap_or_default();
        let lowering = raw.lowering.unwrap_or_default();
        let defaults = Vocabulary::default();
        let canonical = words(platforms.canonical, platforms.extend_canonical, CANONICAL)?;
        let aliases = aliases(platforms.aliases, platforms.extend_aliases, &canonical)?;
        let vocab = Vocabulary {
            canonical,
            aliases,
            canonicalizers: names(
                platforms.canonicalizers,
                platforms.extend_canonicalizers,
                &defaults.canonicalizers,
            )?,
            sources: names(
                platforms.sources,
                platforms.extend_sources,
                &defaults.sources,
            )?,
            functions: functions(
                registration.functions,
                registration.extend_functions,
                &defaults.functions,
            )?,
            lowering_registrations: names(
                registration.lowering,
                registration.extend_lowering,
                &defaults.lowering_registrations,
            )?,
            backends: names(
                registration.backends,
                registration.extend_backends,
                &defaults.backends,
            )?,
            guards: names(
                registration.guards,
                registration.extend_guards,
                &defaults.guards,
            )?,
            unregister: names(
                registration.unregister,
                registration.extend_unregister,
                &defaults.unregister,
            )?,
            run_once: names(
                registration.run_once,
                registration.extend_run_once,
                &defaults.run_once,
            )?,
            lowering_calls: names(
                lowering.calls,
                lowering.extend_calls,
                &defaults.lowering_calls,
            )?,
            backend_setters: names(
                lowering.backend_setters,
                lowering.extend_backend_setters,
                &defaults.backend_setters,
            )?,
            backend_requests: names(
                lowering.backend_requests,
                lowering.extend_backend_requests,
                &defaults.backend_requests,
            )?,
            check_tests: platforms.check_tests.unwrap_or(defaults.check_tests),
            check_test_registrations: registration
                .check_tests
                .unwrap_or(defaults.check_test_registrations),
            ..defaults.clone()
        };
        let mut exclude = Vec::new();
        for pattern in raw.exclude.unwrap_or_default() {
            exclude.push((pattern.get_ref().clone(), glob(&pattern)?));
        }
        let mut per_file_ignores = Vec::new();
        for (pattern, names) in raw.per_file_ignores.unwrap_or_default() {
            let mut lints = Vec::new();
            for name in names {
                let Some(id) = LintId::from_name(name.get_ref()) else {
                    return Err((Some(name.span()), unknown_lint_message(name.get_ref())));
                };
                lints.push(id);
            }
            per_file_ignores.push(PerFileIgnore {
                glob: glob(&pattern)?,
                name_too: !pattern.get_ref().contains('/'),
                pattern: pattern.into_inner(),
                lints,
            });
        }
        Ok(Config {
            vocab,
            levels,
            exclude,
            per_file_ignores,
            origin,
        })
    }

    /// `path` relative to the configuration's folder, which `exclude` and
    /// `[per-file-ignores]` globs are written against; `None` outside it or
    /// for the built-in configuration.
    fn relative(&self, path: &Path) -> Option<PathBuf> {
        let dir = self.origin.dir()?;
        let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        abs.strip_prefix(dir).ok().map(Path::to_path_buf)
    }

    /// `path` matches an `exclude` pattern (relative to the configuration's
    /// folder), or lies in a folder that does.
    pub fn excludes(&self, path: &Path) -> bool {
        if self.exclude.is_empty() {
            return false;
        }
        let Some(rel) = self.relative(path) else {
            return false;
        };
        rel.ancestors()
            .filter(|p| !p.as_os_str().is_empty())
            .any(|p| self.exclude.iter().any(|(_, g)| g.is_match(p)))
    }

    /// Whether `[per-file-ignores]` turns `lint` off in the file `path`: a
    /// glob matches its path relative to the configuration's folder, or a
    /// folder it is in, or (a glob without `/`) its name.
    pub fn ignores(&self, path: &Path, lint: LintId) -> bool {
        let mut entries = (self.per_file_ignores.iter())
            .filter(|p| p.lints.contains(&lint))
            .peekable();
        if entries.peek().is_none() {
            return false;
        }
        let Some(rel) = self.relative(path) else {
            return false;
        };
        let name = rel.file_name().map(Path::new);
        entries.any(|p| {
            (p.name_too && name.is_some_and(|n| p.glob.is_match(n)))
                || (rel.ancestors())
                    .filter(|a| !a.as_os_str().is_empty())
                    .any(|a| p.glob.is_match(a))
        })
    }

    /// The effective configuration as TOML, for `backend-lint config`.
    pub fn to_toml(&self) -> String {
        let effective = Effective {
            exclude: self.exclude.iter().map(|(p, _)| p.clone()).collect(),
            per_file_ignores: (self.per_file_ignores.iter())
                .map(|p| {
                    let lints = p.lints.iter().map(|l| l.name().to_string()).collect();
                    (p.pattern.clone(), lints)
                })
                .collect(),
            lints: LintId::ALL
                .iter()
                .map(|&id| (id.name().to_string(), self.level(id)))
                .collect(),
            platforms: EffectivePlatforms {
                canonical: self.vocab.canonical.clone(),
                aliases: self.vocab.aliases.iter().cloned().collect(),
                canonicalizers: self.vocab.canonicalizers.texts(),
                sources: self.vocab.sources.texts(),
                check_tests: self.vocab.check_tests,
            },
            registration: EffectiveRegistration {
                functions: (self.vocab.functions.iter())
                    .chain(self.vocab.learned.list())
                    .map(|f| EffectiveFunction {
                        name: f.pattern.text.clone(),
                        key: (!f.pattern.exclude).then(|| f.key.clone()),
                    })
                    .collect(),
                lowering: self.vocab.lowering_registrations.texts(),
                backends: self.vocab.backends.texts(),
                guards: self.vocab.guards.texts(),
                unregister: self.vocab.unregister.texts(),
                run_once: self.vocab.run_once.texts(),
                check_tests: self.vocab.check_test_registrations,
            },
            lowering: EffectiveLowering {
                calls: self.vocab.lowering_calls.texts(),
                backend_setters: self.vocab.backend_setters.texts(),
                backend_requests: self.vocab.backend_requests.texts(),
            },
        };
        let body = toml::to_string_pretty(&effective).unwrap_or_default();
        format!(
            "# from: {}\n\n{body}",
            crate::model::text::visible(&self.origin.describe())
        )
    }
}

#[derive(Serialize)]
#[serde(rename_all = "kebab-case")]
struct Effective {
    exclude: Vec<String>,
    per_file_ignores: BTreeMap<String, Vec<String>>,
    lints: BTreeMap<String, Level>,
    platforms: EffectivePlatforms,
    registration: EffectiveRegistration,
    lowering: EffectiveLowering,
}

#[derive(Serialize)]
#[serde(rename_all = "kebab-case")]
struct EffectivePlatforms {
    canonical: Vec<String>,
    aliases: BTreeMap<String, Vec<String>>,
    canonicalizers: Vec<String>,
    sources: Vec<String>,
    check_tests: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "kebab-case")]
struct EffectiveRegistration {
    functions: Vec<EffectiveFunction>,
    lowering: Vec<String>,
    backends: Vec<String>,
    guards: Vec<String>,
    unregister: Vec<String>,
    run_once: Vec<String>,
    check_tests: bool,
}

#[derive(Serialize)]
struct EffectiveFunction {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    key: Option<Vec<usize>>,
}

#[derive(Serialize)]
#[serde(rename_all = "kebab-case")]
struct EffectiveLowering {
    calls: Vec<String>,
    backend_setters: Vec<String>,
    backend_requests: Vec<String>,
}

type Invalid = (Option<std::ops::Range<usize>>, String);

/// A glob of `exclude` or `[per-file-ignores]`: `*` stops at `/`.
fn glob(pattern: &Spanned<String>) -> Result<globset::GlobMatcher, Invalid> {
    let glob = globset::GlobBuilder::new(pattern.get_ref())
        .literal_separator(true)
        .build()
        .map_err(|e| {
            (
                Some(pattern.span()),
                format!("`{}` is not a glob: {}", pattern.get_ref(), e.kind()),
            )
        })?;
    Ok(glob.compile_matcher())
}

/// `x` replaces the built-in list, `extend-x` adds to it.
fn names(replace: NameList, extend: NameList, default: &NameSet) -> Result<NameSet, Invalid> {
    let mut patterns = match replace {
        Some(list) => parse_patterns(list)?,
        None => default.patterns.clone(),
    };
    patterns.extend(parse_patterns(extend.unwrap_or_default())?);
    Ok(NameSet::new(patterns))
}

fn parse_patterns(list: Vec<Spanned<String>>) -> Result<Vec<Pattern>, Invalid> {
    list.into_iter()
        .map(|s| Pattern::parse(s.get_ref()).map_err(|m| (Some(s.span()), m)))
        .collect()
}

/// Platform names: plain lower-case names, no patterns.
fn words(replace: NameList, extend: NameList, default: &[&str]) -> Result<Vec<String>, Invalid> {
    let mut out: Vec<String> = match replace {
        Some(list) => list.into_iter().map(Spanned::into_inner).collect(),
        None => default.iter().map(|s| s.to_string()).collect(),
    };
    out.extend(
        extend
            .unwrap_or_default()
            .into_iter()
            .map(Spanned::into_inner),
    );
    out.dedup();
    Ok(out)
}

type RawAliases = Option<BTreeMap<Spanned<String>, Vec<Spanned<String>>>>;

fn aliases(
    replace: RawAliases,
    extend: RawAliases,
    canonical: &[String],
) -> Result<Vec<(String, Vec<String>)>, Invalid> {
    let mut out: Vec<(String, Vec<String>)> = match replace {
        Some(_) => Vec::new(),
        None => ALIASES
            .iter()
            .map(|(a, t)| (a.to_string(), t.iter().map(|s| s.to_string()).collect()))
            .collect(),
    };
    for (alias, targets) in replace.into_iter().chain(extend).flatten() {
        if canonical
            .iter()
            .any(|c| c.eq_ignore_ascii_case(alias.get_ref()))
        {
            return Err((
                Some(alias.span()),
                format!(
                    "`{}` is a canonical platform and cannot also be an alias",
                    alias.get_ref()
                ),
            ));
        }
        let mut names = Vec::new();
        for t in targets {
            if !canonical.contains(t.get_ref()) {
                return Err((
                    Some(t.span()),
                    format!(
                        "alias `{}` stands for `{}`, which is not a canonical platform (add it to `platforms.canonical` or `platforms.extend-canonical`)",
                        alias.get_ref(),
                        t.get_ref()
                    ),
                ));
            }
            names.push(t.into_inner());
        }
        let alias = alias.into_inner().to_ascii_lowercase();
        out.retain(|(a, _)| *a != alias);
        out.push((alias, names));
    }
    // Only aliases of platforms that are still canonical.
    for (_, targets) in &mut out {
        targets.retain(|t| canonical.contains(t));
    }
    out.retain(|(_, t)| !t.is_empty());
    Ok(out)
}

fn functions(
    replace: Option<Vec<RawFunction>>,
    extend: Option<Vec<RawFunction>>,
    default: &[Function],
) -> Result<Vec<Function>, Invalid> {
    let convert = |list: Vec<RawFunction>| -> Result<Vec<Function>, Invalid> {
        list.into_iter()
            .map(|f| {
                let pattern =
                    Pattern::parse(f.name.get_ref()).map_err(|m| (Some(f.name.span()), m))?;
                let key = match f.key.map(Spanned::into_inner) {
                    None => vec![0],
                    Some(KeySpec::One(i)) => vec![i],
                    Some(KeySpec::Many(list)) => list,
                };
                Ok(Function {
                    pattern,
                    key,
                    receiver: CallReceiver::Written,
                    arity: None,
                    switch: None,
                    constants: Vec::new(),
                })
            })
            .collect()
    };
    let mut out = match replace {
        Some(list) => convert(list)?,
        None => default.to_vec(),
    };
    out.extend(convert(extend.unwrap_or_default())?);
    Ok(out)
}

// ---------------------------------------------------------------------------
// Errors

/// A configuration that cannot be used: the run stops with exit code 2.
#[derive(Debug, Clone)]
pub struct ConfigError {
    pub path: PathBuf,
    pub text: String,
    pub span: Option<std::ops::Range<usize>>,
    pub message: String,
}

impl ConfigError {
    /// `path:line:col: message`, then a miette excerpt of the TOML.
    pub fn render(&self, color: bool) -> String {
        use crate::model::text::{Excerpt, excerpt_fits, visible};
        use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource};
        // The file comes from the checkout: its name, its text and the
        // parser's message quoting it are shown visibly.
        let shown = crate::model::source::display_path(
            &self.path,
            &std::env::current_dir().unwrap_or_default(),
        );
        let shown = visible(&shown).into_owned();
        let message = visible(&self.message);
        let Some(span) = self.span.clone() else {
            return format!("error: {shown}: {message}\n");
        };
        let file = crate::model::source::SourceFile::new(
            self.path.clone(),
            shown.clone(),
            Arc::from(self.text.as_str()),
        );
        let at = file.line_col(span.start);
        if !excerpt_fits(&file, span.start, span.end) {
            return format!("error: {shown}:{}:{}: {message}\n", at.line, at.column);
        }
        let excerpt = Excerpt::new(&file.text);
        let span = excerpt.offset(span.start)..excerpt.offset(span.end);
        let report = miette::MietteDiagnostic::new(format!("invalid configuration: {message}"))
            .with_labels(vec![LabeledSpan::at(span, "here")])
            .with_help("see `backend-lint config` and the README's Configuration section");
        let report =
            miette::Report::new(report).with_source_code(NamedSource::new(&shown, excerpt.text));
        let theme = if color {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        let mut out = format!("error: {shown}:{}:{}: {message}\n", at.line, at.column);
        let _ = GraphicalReportHandler::new_themed(theme)
            .with_width(100)
            .render_report(&mut out, report.as_ref());
        out
    }
}

/// toml's message, naming the key it is about (`platforms.canonical`).
fn describe_toml_error(e: &toml::de::Error, text: &str) -> String {
    let message = e.message().trim().to_string();
    let message = if message.contains("untagged enum KeySpec") {
        "expected an argument index (0-based) or a list of them".to_string()
    } else {
        message
    };
    match e.span().and_then(|s| key_at(text, s.start)) {
        // "unknown field `x`" names the key already.
        Some(key) if !message.contains(&format!("`{}`", key.rsplit('.').next().unwrap_or(""))) => {
            format!("`{key}`: {message}")
        }
        _ => message,
    }
}

/// The dotted key whose value is at `offset`: the last `[table]` header
/// before it, and the key on its line.
fn key_at(text: &str, offset: usize) -> Option<String> {
    let before = text.get(..offset)?;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = &text[line_start..];
    let line = &line[..line.find('\n').unwrap_or(line.len())];
    let key = line
        .split_once('=')
        .map(|(k, _)| k.trim().trim_matches('"').to_string())
        .filter(|k| !k.is_empty() && !k.starts_with('['))?;
    let table = before[..line_start]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('['))
        .map(|l| l.trim_matches(['[', ']']).trim().to_string());
    Some(match table {
        Some(t) if !t.is_empty() => format!("{t}.{key}"),
        _ => key,
    })
}

// ---------------------------------------------------------------------------
// Finding the configuration of a folder

/// Finds and caches the configuration of folders.
#[derive(Debug, Default)]
pub struct Loader {
    overrides: Overrides,
    cache: Mutex<HashMap<PathBuf, Result<Arc<Config>, ConfigError>>>,
    explicit: Option<Arc<Config>>,
}

impl Loader {
    /// `--config PATH` is read right away: a broken one stops the run.
    pub fn new(overrides: Overrides) -> Result<Loader, ConfigError> {
        let explicit = match &overrides.config {
            Some(path) => Some(Arc::new(
                Config::load(path, &overrides)?.ok_or_else(|| ConfigError {
                    path: path.clone(),
                    text: String::new(),
                    span: None,
                    message: "this Cargo.toml has no [package.metadata.backend-lint] or [workspace.metadata.backend-lint] table".into(),
                })?,
            )),
            None => None,
        };
        Ok(Loader {
            overrides,
            cache: Mutex::default(),
            explicit,
        })
    }

    /// The built-in configuration for every folder, whatever files say:
    /// what applies once `init` has written its file, all commented out.
    pub fn builtin() -> Loader {
        Loader {
            explicit: Some(Arc::new(Config::default())),
            ..Loader::default()
        }
    }

    /// The configuration for code in `dir` (a package root or a file's folder).
    pub fn for_dir(&self, dir: &Path) -> Result<Arc<Config>, ConfigError> {
        if let Some(c) = &self.explicit {
            return Ok(c.clone());
        }
        let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        let mut visited = Vec::new();
        let mut found = None;
        for d in dir.ancestors() {
            if let Some(hit) = self.cache.lock().expect("not poisoned").get(d) {
                found = Some(hit.clone());
                break;
            }
            visited.push(d.to_path_buf());
            if let Some(c) = self.in_folder(d) {
                found = Some(c.map(Arc::new));
                break;
            }
        }
        let result = found.unwrap_or_else(|| Ok(Arc::new(Config::builtin(&self.overrides))));
        let mut cache = self.cache.lock().expect("not poisoned");
        for d in visited {
            cache.insert(d, result.clone());
        }
        result
    }

    /// The configuration a folder itself holds, if any.
    fn in_folder(&self, dir: &Path) -> Option<Result<Config, ConfigError>> {
        let names = CONFIG_FILES.iter().copied().chain(["Cargo.toml"]);
        let path = names.map(|name| dir.join(name)).find(|p| p.is_file())?;
        if let Some(target) = linked_out(&path, dir) {
            return Some(Err(ConfigError {
                message: format!(
                    "it is a link to `{}`, outside its folder: not read, so that no file \
                     the analysed code points at is shown (use --config to name a file)",
                    target.display()
                ),
                path,
                text: String::new(),
                span: None,
            }));
        }
        Config::load(&path, &self.overrides).transpose()
    }
}

/// Where `path` leads when it is a link out of `dir`: a configuration found
/// in the analysed tree may be the checkout's, and a link to a file elsewhere
/// (`backend-lint.toml -> ~/.cargo/credentials.toml`) would have that file's
/// lines shown in a parse error.
fn linked_out(path: &Path, dir: &Path) -> Option<PathBuf> {
    if !path.symlink_metadata().ok()?.is_symlink() {
        return None;
    }
    let target = path.canonicalize().ok()?;
    let dir = dir.canonicalize().ok()?;
    (!target.starts_with(dir)).then_some(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_names_prefixes_and_exclusions() {
        let set = NameSet::builtin(&["lower", "lower_*", "!lower_bound"]);
        assert!(set.contains("lower"));
        assert!(set.contains("lower_module"));
        assert!(!set.contains("lower_bound"));
        assert!(!set.contains("lowercase"));
        assert!(Pattern::parse("re*gister").is_err());
        assert!(Pattern::parse("").is_err());
    }

    #[test]
    fn a_set_skips_names_by_first_byte_as_its_patterns_would() {
        let sets: &[&[&str]] = &[
            &["register_*", "!register_handler", "platform"],
            &["*", "!lower*"],
            &["é*", "_x"],
            &["!platform"],
            &[],
        ];
        let names = [
            "",
            "register_",
            "register_handler",
            "register_x",
            "platform",
            "platforms",
            "lower",
            "x",
            "é",
            "éa",
            "_x",
            "_",
            "Platform",
        ];
        for patterns in sets {
            let parsed: Vec<Pattern> = patterns
                .iter()
                .map(|p| Pattern::parse(p).unwrap())
                .collect();
            let set = NameSet::new(parsed.clone());
            for name in names {
                let by_patterns = parsed.iter().any(|p| {
                    !p.exclude
                        && if p.prefix {
                            name.starts_with(&p.stem)
                        } else {
                            name == p.stem
                        }
                }) && !parsed.iter().any(|p| {
                    p.exclude && (name == p.stem || (p.prefix && name.starts_with(&p.stem)))
                });
                assert_eq!(set.contains(name), by_patterns, "{patterns:?} {name:?}");
            }
        }
    }

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
        });
        assert_eq!(v.registration_key("register_backend"), Some(&[0][..]));
        assert_eq!(v.registration_key("register_handler"), Some(&[0, 1][..]));
        assert_eq!(v.registration_key("registered_backends"), None);
        assert_eq!(v.registration_key("add"), None);
    }

    #[test]
    fn the_key_of_an_error_is_named() {
        let text = "[platforms]\ncanonical = \"cpu\"\n";
        assert_eq!(
            key_at(text, text.find("\"cpu\"").unwrap()).as_deref(),
            Some("platforms.canonical")
        );
    }
}
