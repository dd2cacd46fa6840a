//! What the per-file pass extracts from a file: small, owned facts with byte
//! spans. The syntax tree is dropped once these are built.

use crate::model::cfg::Cfg;
use crate::model::diagnostic::Span;
use crate::model::lint_id::LintId;

/// A string-valued expression whose value may only be known crate-wide.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum StrExpr {
    /// A string literal (possibly behind `String::from`, `.to_string()`, `&` ...).
    Lit(String),
    /// A path that may name a `const`/`static` string item: its segments,
    /// and the module scope of the file it was written in (index into
    /// [`FileFacts::scopes`]).
    Path { segments: Vec<String>, scope: u32 },
    /// A path that names an item whatever its type, as a key: a type given
    /// as a type argument (`add_plugin::<LogPlugin>()`, a `TypeId` key), an
    /// enum value (`Stage::Update`), a constant of any type (`ids::GPU`).
    /// A string constant is its value; anything else is the item the
    /// module tree resolves the path to, so two spellings of one item are
    /// one key and two items of one name are two.
    Item { segments: Vec<String>, scope: u32 },
}

/// A `const`/`static` item whose value is a string.
#[derive(Debug, Clone)]
pub struct ConstDef {
    pub name: String,
    pub value: ConstValue,
    /// The inline module scope it is declared in (index into [`FileFacts::scopes`]).
    pub scope: u32,
}

/// What a `const`/`static` is defined as, as far as strings go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConstValue {
    /// A string literal (or `concat!` of them).
    Str(String),
    /// Another constant, by its path as written from the constant's scope
    /// (`const A1: &str = A0;`, `&super::names::CUDA`): its value, if any.
    Alias(Vec<String>),
    /// Anything else: a number, an enum value, a call...
    Other,
}

/// `mod name;`: a module whose body is another file.
#[derive(Debug, Clone)]
pub struct ModDecl {
    pub name: String,
    /// `#[path = ".."]`, if any.
    pub path_attr: Option<String>,
    /// Every `cfg` on the way to the declaration, its own included.
    pub cfgs: Vec<crate::model::cfg::Cfg>,
    pub scope: u32,
}

/// One name brought in by a `use` item: `use a::b as c;` is alias `c`,
/// target `[a, b]`; `use a::b::*;` is a glob of `[a, b]`.
#[derive(Debug, Clone)]
pub struct UseDecl {
    pub scope: u32,
    /// `None` for a glob import.
    pub alias: Option<String>,
    pub target: Vec<String>,
}

/// Where a piece of code sits: which `cfg`s must hold, which branches were
/// taken to reach it, which guards protect it.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// Every `#[cfg]` (and `if cfg!()`) predicate on the way, to be and-ed.
    pub cfgs: Vec<Cfg>,
    /// (branch point, arm) for every `if`/`else` and `match` on the way.
    pub branches: Vec<(u32, u32)>,
    /// Keys tested to be absent (`if !is_registered(key)`) on the way.
    pub guards: Vec<StrExpr>,
    /// `Some(id)` inside test code: each test function builds its own registry.
    pub test_scope: Option<u32>,
    /// `Some(id)` inside a closure run once (`get_or_init`, `call_once`), which
    /// builds its own registry.
    pub once_scope: Option<u32>,
    /// The function (or item, for code outside functions) this is in; unique
    /// within a file.
    pub function: u32,
}

/// A call that registers something under a key.
#[derive(Debug, Clone)]
pub struct Registration {
    /// Last segment of the callee: `register_backend`.
    pub callee: String,
    /// Written by a call of the file's own `macro_rules!` macro of this
    /// name (the outermost one): the spans are the call's.
    pub via_macro: Option<String>,
    /// Made by a call of a learned helper of this name, which registers a
    /// constant key on the registry it is given (`add_cpu(&mut registry)`,
    /// issue 19): `callee` is the registration the helper calls, the spans
    /// are the helper call's.
    pub via_helper: Option<String>,
    /// The registry it registers on: which receiver, if any.
    pub registry: Registry,
    /// What the receiver is, when it was made here by a known constructor.
    pub registry_kind: RegistryKind,
    pub key: StrExpr,
    /// The other arguments that key it (`registration.functions` with
    /// `key = [0, 2]`): equal too in a duplicate. `None` for an argument
    /// left out (a call with fewer arguments): its default, the same for
    /// every call that leaves it out.
    pub also_keyed_by: Vec<Option<StrExpr>>,
    /// For `register_lowering(prim, rule, platform)`: the primitive, as written.
    pub lowering_primitive: Option<String>,
    pub key_span: Span,
    pub call_span: Span,
    pub context: Context,
    /// The call's result is asserted to fail (`assert!(r.register(..).is_err())`).
    pub expects_failure: bool,
    /// The call's result is asserted to succeed (`.unwrap()`, `.expect(..)`,
    /// `?`, `assert!(r.register(..).is_ok())`): in a test, a duplicate is then
    /// the test's bug, not what it exercises.
    pub expects_success: bool,
    /// Where the function returns after this call, if it surely does
    /// (`return r.register(..)`, or a `return` later in an enclosing block):
    /// code of the function after that offset never runs after this call.
    pub returns_at: Option<usize>,
    /// The statement the call is (`r.register(k, v);`, also behind
    /// `.unwrap()`, `.expect(..)` or `?`): what a fix removes.
    pub statement: Option<Statement>,
    /// Each argument as written (whitespace removed), the receiver of a
    /// `Type::f(r, ..)` left out, and the call's type arguments
    /// (`::<i64>`) after them: the parts of a key a callee's body compares
    /// beyond the configured key (`("len", Kind::String)`, issue 28).
    pub args: Vec<String>,
    /// How many of [`Self::args`] are the call's arguments (the rest are
    /// its type arguments).
    pub arity: usize,
    /// What the receiver's type is, where the walk knows it.
    pub receiver_type: Option<ReceiverType>,
}

/// The type of a registration's receiver, as the walk knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReceiverType {
    /// A type by its last segment: `self` in `impl Scene`, `g: &mut
    /// RenderGraph`, `let g = RenderGraph::new()`.
    Named(String),
    /// `self.headers` in the methods of `owner`: the field's declared type,
    /// which the crate pass finds ([`FieldDef`]).
    Field { owner: String, field: String },
}

/// A statement a fix may remove.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    /// What removing it deletes: the statement, and its line when nothing
    /// else is on it (indentation and line break included).
    pub removal: Span,
    /// The statement as written: two registrations are the same call only
    /// when their texts are equal.
    pub text: String,
}

/// Which registry a registration or unregistration is on, as far as the
/// receiver tells: two calls are on one registry when these are equal (and,
/// for a [`Registry::Local`], in one file).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub enum Registry {
    /// A free function's (`register_backend(..)`): no receiver.
    #[default]
    Free,
    /// A receiver rooted at `self` in the methods of `ty` (the `impl`'s self
    /// type, `dyn Trait` in a trait's default methods): `self.base` in the
    /// methods of two types is two registries. `text` as written
    /// (whitespace removed), `self` included.
    SelfField { ty: String, text: String },
    /// A registry made in a function (`let mut r = Registry::new()`), which
    /// another function or closure may name alike: `text` (`r`, `r.inner`)
    /// rooted at the `let` the walk numbered `binding`. Means something in
    /// its file only.
    Local { binding: u32, text: String },
    /// A receiver rooted at a parameter of the function whose name starts
    /// at byte `function` of its file (`reg` of `fn add_cpu(reg: &mut
    /// Registry)`; an offset, unlike the walk's numbers, is the same
    /// whichever bodies the parse left out): the registry
    /// its caller hands it, which two functions naming their parameters
    /// alike do not share. Means something in its file only; the helper's
    /// callers register on their own registry ([`Registration::via_helper`]).
    Param { function: usize, text: String },
    /// A receiver reached through an item's path: a call of a function
    /// (`crate::plugins::registry()`, `registry().lock()`) or a static of
    /// several segments or in capitals (`REGISTRY`). The crate pass
    /// resolves `path` from the inline module or body `scope` through the
    /// module tree and its `use`s, so two spellings of one item are one
    /// registry and two items of one name are two. `rest`: what follows the
    /// path, as written (whitespace removed): `()`, `().lock()`.
    Item {
        path: Vec<String>,
        scope: u32,
        rest: String,
    },
    /// A value made by a call and used only through a chain of methods
    /// that hand it back (`Router::new().route(..).route(..)`): the
    /// chain's own, by the offset where the value's call starts. Means
    /// something in its file only.
    Chain { start: usize, text: String },
    /// Any other receiver, as written (whitespace removed).
    Expr(String),
}

impl Registry {
    /// Named within its file only: equal in two files is not the same registry.
    pub fn is_local(&self) -> bool {
        matches!(
            self,
            Registry::Local { .. } | Registry::Param { .. } | Registry::Chain { .. }
        )
    }

    /// How an [`Registry::Item`] is written: `crate::plugins::registry()`.
    pub fn item_text(&self) -> Option<String> {
        match self {
            Registry::Item { path, rest, .. } => Some(format!("{}{rest}", path.join("::"))),
            _ => None,
        }
    }
}

/// What a registry does with a key registered again.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum RegistryKind {
    /// Not known: it may fail, replace, or keep both.
    #[default]
    Unknown,
    /// A list (`Vec::new()`, `vec![]`): keeps both, a lookup finds the first.
    List,
    /// A map (`HashMap::new()`, `BTreeMap::new()`): the second replaces the first.
    Map,
}

/// `r.unregister(key)`, `r.remove(key)`, `r.deregister(key)`.
#[derive(Debug, Clone)]
pub struct Unregistration {
    pub registry: Registry,
    pub key: StrExpr,
    pub span: Span,
    pub function: u32,
}

/// What an operand of a comparison is, as far as platforms go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Operand {
    /// A device's own platform string, not canonicalized.
    Raw,
    /// A canonicalized platform value (not a literal).
    Canonical,
    /// A string literal, or a path that may name a string const.
    Str(StrExpr),
    /// The result of a call of a function of the package (or a local
    /// holding it): a platform value when that function is inferred to
    /// return one (see [`PlatformFn`]), known crate-wide only.
    Call(ValueCall),
    /// Anything else: unknown, enum, integer...
    Other,
}

#[derive(Debug, Clone)]
pub struct Side {
    pub operand: Operand,
    pub span: Span,
    /// The expression as written, on one line and shortened; a local
    /// binding's name (for messages).
    pub text: String,
    /// For a local binding, the expression it was set from when that is not
    /// the name itself: `dev.platform()` for `p` after `let p = dev.platform();`.
    pub origin: Option<String>,
    /// Where a literal pattern stands; [`PatternPlace::Alone`] for every
    /// other side.
    pub pattern: PatternPlace,
}

/// Where a string literal pattern stands in its pattern: what a fix
/// writing alternatives in its place must keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PatternPlace {
    /// An alternative of its own (`"gpu" =>`, `"gpu" | "tpu"`).
    #[default]
    Alone,
    /// A sub-pattern (`x @ "gpu"`, `&"gpu"`): alternatives need
    /// parentheses, else `x @ "cuda" | "rocm"` binds `x` in one only.
    Bound,
    /// Inside `Some(..)` or `Ok(..)`: the value matched is an `Option` or
    /// a `Result`, which no canonicalizer takes.
    Wrapped,
}

/// A comparison in which at least one side is a platform value.
/// `sides[0]` is the subject (left side, `match` scrutinee); the rest are
/// what it is compared with (right side, literal patterns).
#[derive(Debug, Clone)]
pub struct Comparison {
    pub sides: Vec<Side>,
    pub how: ComparisonKind,
    /// The scope it is written in (index into [`FileFacts::scopes`]): what
    /// names a fix may use there.
    pub scope: u32,
    /// In test code (`#[test]` functions, `#[cfg(test)]` items); whole
    /// test-only files are known crate-wide only.
    pub in_test: bool,
}

/// How a comparison is written (lints word it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ComparisonKind {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `.eq(..)`
    EqMethod,
    /// `.ne(..)`
    NeMethod,
    /// `.eq_ignore_ascii_case(..)`: case does not matter.
    EqIgnoreAsciiCase,
    /// `[..].contains(..)`
    Contains,
    /// `.starts_with(..)` of a string: a prefix.
    StartsWith,
    /// `.ends_with(..)` of a string: a suffix.
    EndsWith,
    /// `.contains(..)` of a string: a part.
    StrContains,
    Match,
    /// `if let "gpu" = p`
    IfLet,
    /// `let "gpu" = p else { .. }`
    LetElse,
    Matches,
    AssertMatches,
    DebugAssertMatches,
    AssertEq,
    AssertNe,
    DebugAssertEq,
    DebugAssertNe,
}

/// A call whose result one function of the package decides, named by the
/// type it is called on when known: `b.as_str()` for `b: Backend` is
/// `Backend::as_str`; `platform_name(k)` a free function (`ty` `None`).
/// Two calls are equal by what names them (`ty`, `fields`, `name`,
/// `opaque`), not by where they are written (`sites`).
#[derive(Debug, Clone, Default)]
pub struct ValueCall {
    /// The type's name, without its path and generics.
    pub ty: Option<String>,
    /// The fields from a value of `ty` to the receiver: `["backend"]` for
    /// `info.backend.to_str()` with `info: AdapterInfo`. The crate pass
    /// follows them through the struct definitions it knows
    /// ([`FieldDef`]); empty for a receiver of type `ty` itself.
    pub fields: Vec<String>,
    /// The method or function; `to_string` for a type's `Display`.
    pub name: String,
    /// The receiver's type is not written where the call is
    /// (`get_accelerator().name()`, `self.devices[i].name()`): only the
    /// semantic model can say which function it calls, never the name.
    pub opaque: bool,
    /// Where the call is written, for the semantic model: the name of each
    /// call from the outermost one compared down to the one `name` names
    /// (`as_str`, then `get_type` in `self.get_type()?.as_str()`); empty for
    /// a function's own call ([`ValueSet::call`], [`PlatformFn::call`]).
    pub sites: Vec<CallSite>,
    /// What was done to the result before it is compared, first applied
    /// first: `to_lowercase`, `to_ascii_lowercase` or `trim` (the
    /// methods that keep a call in view but change its values:
    /// `b.as_str().to_lowercase()` gives `"cuda"` for `"Cuda"`). Like
    /// `sites`, no part of what names the call.
    pub then: Vec<String>,
}

impl ValueCall {
    /// `value`, a value of the function, as the comparison sees it once
    /// [`ValueCall::then`] is applied.
    pub fn seen(&self, value: &str) -> String {
        let mut v = value.to_string();
        for m in &self.then {
            v = match m.as_str() {
                "to_lowercase" => v.to_lowercase(),
                "to_ascii_lowercase" => v.to_ascii_lowercase(),
                "trim" => v.trim().to_string(),
                _ => v,
            };
        }
        v
    }
}

/// The name of a call as written: a method's name, a callee path's last
/// segment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallSite {
    pub span: Span,
    pub name: String,
}

impl PartialEq for ValueCall {
    fn eq(&self, other: &Self) -> bool {
        (self.ty == other.ty)
            && self.fields == other.fields
            && self.name == other.name
            && self.opaque == other.opaque
    }
}

impl Eq for ValueCall {}

impl std::hash::Hash for ValueCall {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (&self.ty, &self.fields, &self.name, self.opaque).hash(state);
    }
}

/// The name of what `Debug` writes, as a value set's call
/// (`format!("{:?}", kind)`): no method can be so named.
pub const DEBUG_CALL: &str = "{:?}";

impl std::fmt::Display for ValueCall {
    /// `Backend::as_str`, `platform_name`; a `Display` as `Backend`'s
    /// `to_string`; a `Debug` as `<Backend as Debug>::fmt`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.ty {
            Some(ty) if self.name == DEBUG_CALL && self.fields.is_empty() => {
                write!(f, "<{ty} as Debug>::fmt")
            }
            Some(ty) => {
                f.write_str(ty)?;
                self.fields.iter().try_for_each(|x| write!(f, ".{x}"))?;
                write!(f, "::{}", self.name)
            }
            None => f.write_str(&self.name),
        }
    }
}

/// A field of a struct whose type is written as a named type (`pub backend:
/// Backend`, `pub backend: wgt::Backend`, the `0` of `struct W(Backend)`):
/// how the crate pass learns the type of `info.backend`. `ty` is `None` for
/// a field of one of the struct's type parameters (`backend: B`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldDef {
    pub owner: String,
    pub field: String,
    pub ty: Option<String>,
}

/// A function or method whose declared result is the named type `ty`
/// (through `&`, `Option`, `Result`, `Box`, `Rc`, `Arc`; `Self` is the
/// impl's type).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Returner {
    pub name: String,
    pub ty: String,
}

/// A function or method that returns only string literals (`match self {
/// Backend::Vulkan => "vulkan", .. }`), or a `Display` that writes only
/// literals: the closed set of values its calls give. Recorded only when a
/// value is a canonical platform name (a platform's own enum).
#[derive(Debug, Clone)]
pub struct ValueSet {
    pub call: ValueCall,
    /// Every literal it returns, in order, each once.
    pub values: Vec<String>,
    /// The function's name, where it is defined.
    pub span: Span,
    /// The 1-based line of `span`.
    pub line: u32,
}

impl ValueSet {
    /// Two definitions give the same values, in any order.
    pub fn same_values(&self, other: &ValueSet) -> bool {
        use std::collections::BTreeSet;
        let set = |s: &ValueSet| s.values.iter().cloned().collect::<BTreeSet<_>>();
        set(self) == set(other)
    }
}

/// A function returning a string whose every returned value is a raw
/// platform value, a canonical one, or the result of one same call: a
/// source, a canonicalizer, or a wrapper of whatever that call is.
#[derive(Debug, Clone)]
pub struct PlatformFn {
    pub call: ValueCall,
    /// [`Operand::Raw`], [`Operand::Canonical`] or [`Operand::Call`].
    pub returns: Operand,
    /// The function's name, where it is defined.
    pub span: Span,
    /// The 1-based line of `span`.
    pub line: u32,
    /// What it returns, as written: `c.platform_name()`.
    pub text: String,
    /// Its declared return type.
    pub ty: StrKind,
}

impl ComparisonKind {
    /// Compares its two sides alike, either way round (`a == b`); not a
    /// string's part (`a.starts_with(b)`) or patterns.
    pub fn is_symmetric(self) -> bool {
        !matches!(
            self,
            ComparisonKind::StartsWith
                | ComparisonKind::EndsWith
                | ComparisonKind::StrContains
                | ComparisonKind::Contains
                | ComparisonKind::Match
                | ComparisonKind::IfLet
                | ComparisonKind::LetElse
                | ComparisonKind::Matches
                | ComparisonKind::AssertMatches
                | ComparisonKind::DebugAssertMatches
        )
    }
}

/// A lowering context: the backend it is given and the platforms it is
/// lowered for, within one function.
#[derive(Debug, Clone, Default)]
pub struct LoweringContext {
    /// `get_backend("cpu")` passed to the context: platform and span of the call.
    pub backends: Vec<Site<BackendRequest>>,
    /// Literal platform lists the context is lowered for.
    pub platforms: Vec<Site<Vec<StrExpr>>>,
    /// `ctx.get_backend()` calls on the context (only an error with several platforms).
    pub backend_reads: Vec<Span>,
    /// A context made by a function of the package (`let ctx =
    /// host_context();`), at the lowering that uses it: its backend is the
    /// one that function gives it ([`ContextFn`]), unless one is set here.
    pub made_by: Vec<Site<ValueCall>>,
    /// Literal platform lists of `for` loops in which the context is lowered.
    pub loop_platforms: Vec<Site<Vec<StrExpr>>>,
}

/// A function that returns a lowering context it gave a backend
/// (`fn host_context() -> LoweringContext { .. get_backend("cpu") .. }`).
#[derive(Debug, Clone)]
pub struct ContextFn {
    pub call: ValueCall,
    pub backends: Vec<Site<BackendRequest>>,
}

/// The platform a backend is asked for.
#[derive(Debug, Clone)]
pub struct BackendRequest {
    pub platform: StrExpr,
    /// The argument, when it is a string literal written out: what a fix replaces.
    pub literal: Option<Span>,
}

/// Something said about a lowering context at one place of the function.
#[derive(Debug, Clone)]
pub struct Site<T> {
    pub value: T,
    pub span: Span,
    /// (branch point, arm) on the way, as in [`Context::branches`]: sites in
    /// different arms of one branch never meet.
    pub branches: Vec<(u32, u32)>,
}

impl<T> Site<T> {
    /// Both sites can be reached in one run of the function.
    pub fn meets<U>(&self, other: &Site<U>) -> bool {
        !self.branches.iter().any(|(id, arm)| {
            other
                .branches
                .iter()
                .any(|(id2, arm2)| id == id2 && arm != arm2)
        })
    }
}

/// Everything the per-file pass learns from one file.
#[derive(Debug, Clone)]
pub struct FileFacts {
    pub consts: Vec<ConstDef>,
    pub registrations: Vec<Registration>,
    pub unregistrations: Vec<Unregistration>,
    pub comparisons: Vec<Comparison>,
    pub lowering: Vec<LoweringContext>,
    /// Functions returning only literals, one of them a canonical platform.
    pub value_sets: Vec<ValueSet>,
    /// Functions returning platform values or wrapping such a call.
    pub platform_fns: Vec<PlatformFn>,
    /// Functions returning a lowering context with a backend.
    pub context_fns: Vec<ContextFn>,
    /// Fields of the file's structs whose type is a named type (or a
    /// type parameter): what `info.backend.to_str()` is called on.
    pub fields: Vec<FieldDef>,
    /// Functions and methods whose declared result is a named type
    /// (`fn current() -> Kind`, `-> Option<&Kind>`): what `current().label()`
    /// is called on, in a file that never names `Kind`.
    pub returners: Vec<Returner>,
    /// `const`/`static` arrays of string literals, one of them a canonical
    /// platform name (`const NAMES: [&str; 3] = ["cpu", "cuda", "rocm"]`):
    /// their names make the files naming them parsed whole (issue 19).
    pub str_arrays: Vec<String>,
    /// Literals written where a lowering platform is expected (platform lists,
    /// `register_lowering`'s platform), for spelling checks.
    /// (each list as written: `platforms: vec![..]`, `lower(&ctx, &[..])`),
    /// and whether it surely is one (an argument of a lowering call or of
    /// `register_lowering`) rather than any field named `platforms`.
    pub lowering_platforms: Vec<(bool, Vec<(StrExpr, Span)>)>,
    /// Inline module paths within the file: `scopes[0]` is the file itself
    /// (`[]`), `mod a { mod b {} }` adds `[a]` and `[a, b]`, a function body
    /// a [`ScopeSegment::Block`] below its module.
    pub scopes: Vec<Vec<ScopeSegment>>,
    pub mod_decls: Vec<ModDecl>,
    pub uses: Vec<UseDecl>,
    /// Names of the types this file declares (structs, enums, traits...):
    /// a path through one of them (`Backend::NAME`) may name a const of ours.
    pub types: Vec<String>,
    /// Suppression comments (`// backend-lint: allow(..)`).
    pub directives: Directives,
    /// Where the file's first item starts (its attributes and doc comments
    /// included), after inner attributes: where a fix adds a `use`.
    pub first_item: Option<usize>,
    /// Functions that may register: what the crate pass learns
    /// registration functions from (issue 19).
    pub functions: Vec<FnSummary>,
    /// Free functions of the file's modules (not in function bodies) that
    /// canonicalize platform names: named as a configured canonicalizer, or
    /// learned as one. Where a fix may call one, and what it gives.
    pub canonicalizers: Vec<FnDef>,
    /// Methods setting a state of `self` ([`StateWrite`]).
    pub state_writes: Vec<StateWrite>,
    /// Calls of other methods on the registries registered on.
    pub registry_calls: Vec<RegistryCall>,
    /// Comparisons of a std normalizer's output with a string
    /// ([`NormalizedComparison`]).
    pub normalized: Vec<NormalizedComparison>,
    /// Functions that normalize a string parameter ([`NormalizerFn`]).
    pub normalizers: Vec<NormalizerFn>,
    /// Locals compared as written with a platform name in a function that
    /// also hands them to a call ([`Handoff`]).
    pub handoffs: Vec<Handoff>,
    /// Fields of a named type compared as written, handed to calls, or
    /// assigned ([`FieldUses`]).
    pub field_uses: FieldUses,
}

/// A field of a value of a named type, as the code reaches it:
/// `self.device` in an impl of `Session`, `args.backend` with `args:
/// &Args`, `self.config.platform` (the path `config.platform`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FieldKey {
    pub ty: String,
    pub path: String,
}

/// How a file uses fields of named types, for the crate pass: a field
/// compared as written with a platform name in one function and handed to a
/// normalizer in another is raw, unless some code assigns it (then it may
/// hold what a normalizer made).
#[derive(Debug, Clone, Default)]
pub struct FieldUses {
    /// Each comparison, with the field's side in it.
    pub compared: Vec<(FieldKey, Comparison, usize)>,
    /// Each call it is handed to, as [`Handoff`]s with no comparison.
    pub handed: Vec<(FieldKey, HandedCall)>,
    pub assigned: Vec<FieldKey>,
    /// Each struct literal's field made by a call (`Manifest { os:
    /// canonical_os(raw) }`, or a local holding one): normalized there when
    /// that call is a normalizer.
    pub built: Vec<(FieldKey, ValueCall)>,
}

impl FieldUses {
    pub fn is_empty(&self) -> bool {
        self.compared.is_empty()
            && self.handed.is_empty()
            && self.assigned.is_empty()
            && self.built.is_empty()
    }
}

/// A value handed to a call: the function, as which argument, the call as
/// written and where.
#[derive(Debug, Clone)]
pub struct HandedCall {
    pub callee: ValueCall,
    pub arg: usize,
    pub text: String,
    pub span: Span,
}

/// A function that normalizes a string parameter, learned from what its
/// body does with it: it folds the case before comparing
/// (`s.to_lowercase()`, `eq_ignore_ascii_case`), or takes several spellings
/// for one outcome (`"cuda" | "CUDA" | "gpu" =>`, `let s = if s ==
/// "default" { "cpu" } else { s };`). A value it is handed is raw anywhere
/// else: compared as written, the other spellings are missed.
#[derive(Debug, Clone)]
pub struct NormalizerFn {
    pub call: ValueCall,
    /// The argument it normalizes (`self` not counted).
    pub param: usize,
    /// Compares with its case folded: every spelling in another case is
    /// taken too.
    pub folds_case: bool,
    /// Spellings taken for one outcome, at most one canonical platform in
    /// each ([`Spellings`]).
    pub classes: Vec<Spellings>,
    /// Folds to upper case (`to_uppercase`), not lower.
    pub upper: bool,
    /// What it respells: `("-", "_")` for `.replace('-', "_")`, a few at
    /// most (those of the value it gives).
    pub replaced: Vec<(String, String)>,
    /// The function's name, where it is defined.
    pub span: Span,
    /// The 1-based line of `span`.
    pub line: u32,
}

impl NormalizerFn {
    /// What it does, in words: "takes `\"cpu\"` and `\"default\"` alike".
    pub fn describe(&self) -> String {
        let quoted = |v: &[String]| {
            let q: Vec<String> = v.iter().map(|s| format!("`\"{s}\"`")).collect();
            match q.as_slice() {
                [init @ .., last] if !init.is_empty() => format!("{} and {last}", init.join(", ")),
                _ => q.join(""),
            }
        };
        let mut parts: Vec<String> = (self.classes.iter())
            .map(|c| format!("takes {} alike", quoted(&c.spelled)))
            .collect();
        if self.folds_case {
            parts.insert(0, "folds the case before comparing".to_string());
        }
        parts.join("; ")
    }
}

/// Spellings a normalizer takes for one outcome (`"default"` and `"cpu"`),
/// and the platforms an alias among them stands for in the configuration
/// (`"gpu"`: `"cuda"`, `"rocm"`, `"oneapi"`): a comparison with one of
/// those misses the spellings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spellings {
    pub spelled: Vec<String>,
    pub stands_for: Vec<String>,
}

impl NormalizerFn {
    /// The other spellings this normalizer takes for `value` that a
    /// comparison with `value` as written misses; empty when none.
    pub fn missed(&self, value: &str) -> Vec<String> {
        let mut other: Vec<String> = (self.classes.iter())
            .filter(|c| c.spelled.iter().chain(&c.stands_for).any(|v| v == value))
            .flat_map(|c| &c.spelled)
            .filter(|v| *v != value)
            .cloned()
            .collect();
        if self.folds_case && value.bytes().any(|b| b.is_ascii_alphabetic()) {
            let flipped: String = value
                .chars()
                .map(|c| match c.is_ascii_lowercase() {
                    true => c.to_ascii_uppercase(),
                    false => c.to_ascii_lowercase(),
                })
                .collect();
            other.push(flipped);
        }
        // `"least-recent"` for `"least_recent"` after `.replace('-', "_")`.
        for (from, to) in &self.replaced {
            if !to.is_empty() && value.contains(to.as_str()) {
                other.push(value.replace(to.as_str(), from));
            }
        }
        other.sort();
        other.dedup();
        other
    }

    /// Whether `value` is a spelling this normalizer gives: one of a class
    /// it takes alike, or, when it folds the case, one its folding keeps
    /// as it is (`"in_memory"` for a lowercasing one). A field compared
    /// as written with such a value is compared with the normalizer's
    /// spelling, not its own.
    pub fn gives(&self, value: &str) -> bool {
        let folded = match self.upper {
            true => value.to_ascii_uppercase(),
            false => value.to_ascii_lowercase(),
        };
        (self.classes.iter()).any(|c| c.spelled.iter().any(|v| v == value))
            || (self.folds_case && folded == value)
    }
}

/// A local compared as written with a platform name, in a function that
/// hands the same binding to a call (`matches!(runtime, "cuda" | "metal")`
/// and `runtime_for_name(runtime)`): raw, when that call normalizes it.
#[derive(Debug, Clone)]
pub struct Handoff {
    pub comparison: Comparison,
    /// The local's side in [`Handoff::comparison`].
    pub subject: usize,
    /// The call it is handed to.
    pub call: HandedCall,
}

/// What the standard library's string normalizers guarantee of their
/// output, once applied in order (`s.trim().to_lowercase()`): lowercasing
/// leaves no ASCII uppercase letter, uppercasing no ASCII lowercase one,
/// `trim()` no whitespace at either end, `replace(a, b)` no `a` where `b`
/// cannot make one again ([`Normalized::replaced`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Normalized {
    pub no_upper: bool,
    pub no_lower: bool,
    pub trimmed: bool,
    /// Strings the value never contains.
    pub without: Vec<String>,
}

impl Normalized {
    /// Nothing known.
    pub fn is_empty(&self) -> bool {
        !self.no_upper && !self.no_lower && !self.trimmed && self.without.is_empty()
    }

    /// After `to_lowercase()`/`to_ascii_lowercase()` (`upper`: the
    /// uppercasing ones): a letter may now be a piece of a removed string.
    pub fn cased(mut self, upper: bool) -> Normalized {
        self.without.clear();
        self.no_upper = !upper;
        self.no_lower = upper;
        self
    }

    /// After `trim()`: a part of a value keeps what the value lacks.
    pub fn trim(mut self) -> Normalized {
        self.trimmed = true;
        self
    }

    /// After `replace(from, to)` (`from` a string or a char literal, `to`
    /// a string literal). `from` is gone unless `to` can make it again: by
    /// holding it, or, for a `from` of several chars, by being empty (two
    /// remainders meet), lying inside it, or overlapping it at an edge
    /// (`"abb".replace("ab", "a")` is `"ab"`). What else was known holds
    /// where `to` keeps it.
    pub fn replaced(mut self, from: &str, to: &str) -> Normalized {
        let keeps = |gone: &str| safe_replacement(gone, to);
        self.without.retain(|w| keeps(w));
        if keeps(from) && !self.without.iter().any(|w| w == from) {
            self.without.push(from.to_string());
        }
        self.no_upper &= !to.bytes().any(|b| b.is_ascii_uppercase());
        self.no_lower &= !to.bytes().any(|b| b.is_ascii_lowercase());
        self.trimmed &= !to.is_empty()
            && !to.starts_with(char::is_whitespace)
            && !to.ends_with(char::is_whitespace);
        self
    }

    /// Why `literal` can never be what a comparison of this kind asks of
    /// the value (all of it, its start, its end, a part of it): `None` when
    /// it may be. `eq_ignore_ascii_case` and `assert_ne!` are not judged.
    pub fn excludes(&self, literal: &str, how: ComparisonKind) -> Option<Excluded> {
        use ComparisonKind as K;
        let (start, end) = match how {
            K::EqIgnoreAsciiCase | K::AssertNe | K::DebugAssertNe => return None,
            K::StartsWith => (true, false),
            K::EndsWith => (false, true),
            K::StrContains => (false, false),
            _ => (true, true),
        };
        if self.no_upper && literal.bytes().any(|b| b.is_ascii_uppercase()) {
            return Some(Excluded::Upper);
        }
        if self.no_lower && literal.bytes().any(|b| b.is_ascii_lowercase()) {
            return Some(Excluded::Lower);
        }
        if self.trimmed
            && ((start && literal.starts_with(char::is_whitespace))
                || (end && literal.ends_with(char::is_whitespace)))
        {
            return Some(Excluded::Whitespace);
        }
        (self.without.iter())
            .find(|w| literal.contains(w.as_str()))
            .map(|w| Excluded::Removed(w.clone()))
    }
}

/// Whether no `gone` can appear in `s.replace(gone, to)` for a `s`
/// holding none (a `gone` of `s` is replaced): only a `to` holding it,
/// two remainders meeting (`to` empty), or `to` completing a piece of it
/// at an edge (or lying inside it) can make one.
fn safe_replacement(gone: &str, to: &str) -> bool {
    if gone.is_empty() || to.contains(gone) {
        return false;
    }
    if gone.chars().count() == 1 {
        return true;
    }
    if to.is_empty() || gone.contains(to) {
        return false;
    }
    let cuts = gone.char_indices().skip(1).map(|(i, _)| i);
    !cuts.clone().any(|i| to.ends_with(&gone[..i]))
        && !cuts.into_iter().any(|i| to.starts_with(&gone[i..]))
}

/// What a normalizer's output never holds that a literal does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Excluded {
    /// An ASCII uppercase letter, after lowercasing.
    Upper,
    /// An ASCII lowercase letter, after uppercasing.
    Lower,
    /// Whitespace at the end compared, after `trim()`.
    Whitespace,
    /// A string replaced away.
    Removed(String),
}

/// A comparison of a value a std normalizer made ([`Normalized`]),
/// directly or through a local, with a string: decided crate-wide, where
/// a `const` resolves.
#[derive(Debug, Clone)]
pub struct NormalizedComparison {
    /// The normalized value as written (a local's name).
    pub subject: Side,
    /// The normalizer call it comes from, as written.
    pub made_by: String,
    pub shape: Normalized,
    /// The string compared with.
    pub other: Side,
    /// `starts_with`-like for `strip_prefix`, `ends_with` for `strip_suffix`.
    pub how: ComparisonKind,
    pub in_test: bool,
}

/// A free function as a fix calls it: its name, the module it is defined
/// in, whether other modules may name it, and its declared return type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FnDef {
    pub name: String,
    /// Index into [`FileFacts::scopes`]: an inline module, never a body.
    pub scope: u32,
    /// Declared `pub` (or `pub(crate)`, `pub(super)`...).
    pub public: bool,
    /// Its number of parameters: a fix calls only one of one.
    pub params: usize,
    /// The declared type of its first parameter.
    pub takes: StrKind,
    pub returns: StrKind,
}

/// A declared return type, as far as comparing it with a `&str` pattern
/// goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StrKind {
    /// `&str`, `&'static str`: matches a string pattern as it is.
    Str,
    /// `String`: `.as_str()` before a pattern.
    String,
    /// `Cow<str>` (any path, any lifetime): `&*` before a pattern.
    Cow,
    /// Anything else (`impl AsRef<str>`, `Option<String>`, a type alias):
    /// no fix may assume what it is.
    Other,
}

impl StrKind {
    /// The kind of a type written as in `fn f() -> TYPE`.
    pub fn of_type(ty: &syn::Type) -> StrKind {
        match ty {
            syn::Type::Reference(r) if r.mutability.is_none() => match &*r.elem {
                syn::Type::Path(p) if p.qself.is_none() && p.path.is_ident("str") => StrKind::Str,
                _ => StrKind::Other,
            },
            syn::Type::Paren(p) => StrKind::of_type(&p.elem),
            syn::Type::Group(g) => StrKind::of_type(&g.elem),
            syn::Type::Path(p) if p.qself.is_none() => {
                let Some(last) = p.path.segments.last() else {
                    return StrKind::Other;
                };
                match last.ident.to_string().as_str() {
                    "String" if last.arguments.is_none() => StrKind::String,
                    "Cow" => {
                        let syn::PathArguments::AngleBracketed(a) = &last.arguments else {
                            return StrKind::Other;
                        };
                        let str_arg = a.args.iter().any(|arg| {
                            matches!(arg, syn::GenericArgument::Type(syn::Type::Path(t)) if t.path.is_ident("str"))
                        });
                        if str_arg {
                            StrKind::Cow
                        } else {
                            StrKind::Other
                        }
                    }
                    _ => StrKind::Other,
                }
            }
            _ => StrKind::Other,
        }
    }

    /// The kind a signature declares (`Other` for `()`).
    pub fn of_output(output: &syn::ReturnType) -> StrKind {
        match output {
            syn::ReturnType::Type(_, ty) => StrKind::of_type(ty),
            syn::ReturnType::Default => StrKind::Other,
        }
    }
}

impl FnDef {
    /// The definition of free function `sig` in scope `scope`.
    pub fn of(sig: &syn::Signature, public: bool, scope: u32) -> FnDef {
        FnDef {
            name: sig.ident.to_string(),
            scope,
            public,
            params: sig.inputs.len(),
            takes: match sig.inputs.first() {
                Some(syn::FnArg::Typed(t)) => StrKind::of_type(&t.ty),
                _ => StrKind::Other,
            },
            returns: StrKind::of_output(&sig.output),
        }
    }
}

/// A function as far as registries go (issue 19): whether it rejects a
/// second insertion of a key, which of its parameters reach the key
/// arguments of the registrations it calls, which `self` fields it sets.
/// Recorded only for a function that does one of these with the
/// vocabulary's names, so a body the prefilter leaves out has none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FnSummary {
    pub name: String,
    /// The `impl`'s self type of a method (as [`Registry::SelfField`]).
    pub self_type: Option<String>,
    /// A method taking `self`: parameters are numbered after it, as the
    /// arguments of a method call are.
    pub method: bool,
    /// Its name, where a finding resting on it says it was learned.
    pub span: Span,
    /// 1-based line of its name, for "made at file:line".
    pub line: u32,
    pub rejects: Option<Rejection>,
    pub calls: Vec<ForwardCall>,
    /// `self.<field> = ..` assignments.
    pub sets_fields: Vec<String>,
    /// How many parameters it takes, `self` not counted: a call with
    /// another number of arguments calls another function.
    pub arity: usize,
    /// Their names, `None` for a pattern, `self` not counted: for messages.
    pub params: Vec<Option<String>>,
    /// What its body does with a key given twice, for a function named as a
    /// registration (`register*`): its calls are then judged by it, not by
    /// the name (issue 28). `None` for other functions, or a body that
    /// tells none of these.
    pub keeping: Option<Keeping>,
    /// `if self.initialized { return Err(..) }`: a check of the receiver's
    /// own state, whatever the key, that fails every call once the state
    /// is set (by an initialization, [`StateWrite`]).
    pub rejects_after: Option<StateCheck>,
    /// It hands its receiver back (`-> Self`, `-> &mut Self`, `->
    /// Result<&mut Self, E>`): calls chained on its result
    /// (`router.route(..).route(..)`) are calls on the same receiver.
    pub returns_self: bool,
    /// The parameters (or the registry it returns, numbered `arity`) on
    /// which it turns a learned switch on (`linker.allow_shadowing(true)`):
    /// what it registers there may replace, so it is no helper of theirs.
    pub switched: Vec<usize>,
    /// It fails on its second call whatever its arguments, by a mechanism
    /// of its own on a static (issue 29): a singleton.
    pub singleton: Option<SingletonMechanism>,
    /// Its calls of functions the vocabulary names as singletons (learned
    /// ones, [`crate::config::Names::Singletons`]), in order: what it passes
    /// on of their failure, and where they are, for the wrappers the
    /// learning finds and for `initialized_twice`.
    pub singleton_calls: Vec<SingletonCall>,
    /// Recorded for its singleton facts only: no registration learning or
    /// callee verdict reads it.
    pub singleton_only: bool,
    /// Its body has no statement: a stand-in, which tells nothing of what
    /// a registration does.
    pub empty: bool,
    /// It fails (`Err`, panic) when a lookup finds something
    /// (`if self.table.contains_key(&self.name) { panic!(..) }`), whatever
    /// the key is built from: [`Self::rejects`] says it only for a key of
    /// its parameters. A key handed this way may be refused.
    pub checks_presence: bool,
    /// Every function and method its body calls (closures included), by
    /// name and how, each once; at most 64 (`summary::MAX_CALLED`):
    /// a builder chain's `.register()` is no [`Self::calls`] entry, as it
    /// takes no parameter, yet the key may reach it.
    pub called: Vec<(String, CallVia)>,
    /// Another package can name it: a `pub` function of a module (not of a
    /// body), a `pub` method of an inherent impl, a method of a trait's
    /// impl. (Whether its module and its type are reachable is not known
    /// here: a `pub` item of a private module counts.) What a package
    /// exports of its singletons (issue 29).
    pub public: bool,
}

/// What the second call of a singleton does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fails {
    ReturnsErr,
    Panics,
}

impl Fails {
    /// For messages: "returns Err", "panics".
    pub fn words(self) -> &'static str {
        match self {
            Fails::ReturnsErr => "returns Err",
            Fails::Panics => "panics",
        }
    }
}

/// A singleton's own mechanism ([`FnSummary::singleton`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SingletonMechanism {
    pub fails: Fails,
    /// How it was seen, for messages: "`STATE.compare_exchange` with a
    /// failing losing side".
    pub how: String,
    /// The static it works on: two singletons of one state conflict.
    pub state: String,
}

/// How a call's result is used ([`SingletonCall::result`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallUse {
    /// `?`, `return`, the tail, `.map_err(..)?`: an `Err` is passed on.
    Propagated,
    /// `.unwrap()`, `.expect(..)`: an `Err` panics.
    Unwrapped,
    /// `let _ =`, `.ok()`, `.unwrap_or(..)`, `if let Err(_)`, a `match`, a
    /// statement dropping it: an `Err` is dealt with or ignored.
    Ignored,
}

/// A call of a function named as a singleton ([`FnSummary::singleton_calls`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SingletonCall {
    /// Last segment of the callee.
    pub callee: String,
    pub via: CallVia,
    /// `Type::new().num_threads(..).build_global()`: the type the receiver
    /// chain starts from (`ThreadPoolBuilder`), or the caller's own type
    /// for `self.m()`; `None` for any other receiver.
    pub receiver_type: Option<String>,
    /// `Type::f(..)`: the type named.
    pub path_type: Option<String>,
    /// Called by a path of two segments or more (`log::set_logger(..)`,
    /// `telemetry::init()`), not by its name alone.
    pub qualified: bool,
    /// That path's first segment (`log`, `std`).
    pub path_root: Option<String>,
    pub arity: usize,
    /// The callee's name.
    pub span: Span,
    pub line: u32,
    pub result: CallUse,
    /// The branches it is in: (the `if`/`match` by its offset, the arm).
    pub branches: Vec<(u32, u32)>,
    pub in_loop: bool,
    /// In a closure, an `async` block or under a `cfg`: when (or whether)
    /// it runs is not known.
    pub uncertain: bool,
    /// In a closure or an `async` block (under no `cfg`): the innermost
    /// one, by its position. Two calls in one run in order, if it runs
    /// (`block_on(async { init()?; run().await })`).
    pub region: Option<u32>,
    /// The `if`s before it whose branch ended the function.
    pub after_exits: Vec<u32>,
    /// In the closure a static's `call_once`/`get_or_init` runs once
    /// (`SHARED.call_once(|| ctrlc::set_handler(..))`): that static. The
    /// call runs on the function's first call only.
    pub once: Option<String>,
    /// Under an `if` or `match` whose condition may test whether the
    /// global is set already (a static, `log::max_level()`,
    /// `is_initialized()`): no path is known to reach it after another.
    pub tested: bool,
    /// A method called on a chain of unknown type that starts at a
    /// function of another crate (`tracing_subscriber::fmt().init()`,
    /// `stderrlog::new().verbosity(2).init()`, or `fmt()` brought by a
    /// `use`): that crate, as the path names it.
    pub chain_root: Option<String>,
    /// The same chain starting at a function named alone (`fmt()`): its
    /// name, for the file's `use`s to say whose it is.
    pub chain_fn: Option<String>,
    /// A free call by a path (`acl::permission::add::command()`): the
    /// modules it names (`acl`, `permission`, `add`; none for a path from
    /// `self` or `super`, `crate` left out), which tell two functions of
    /// one name apart.
    pub module: Vec<String>,
    /// For a method call: the traits the file brings into scope by name
    /// (`use tracing_subscriber::util::SubscriberInitExt`), whose default
    /// methods the call may reach whatever its receiver (a blanket impl).
    pub traits: Vec<String>,
}

/// A guard on a field of `self` that fails the call when the field is set
/// ([`FnSummary::rejects_after`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateCheck {
    pub field: String,
    /// The check as written, for messages: "`self.initialized`".
    pub check: String,
}

/// `self.initialized = true` (or `= Some(..)`, `.store(true, ..)`,
/// `.set(..)`) in a method: the method sets that state of its receiver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateWrite {
    /// The `impl`'s self type, as written.
    pub self_type: Option<String>,
    pub method: String,
    pub field: String,
}

/// A method call on a registry the same function registers on, other than
/// a registration: what may change the registry's state between two
/// registrations or before one (`registry.init_backends()`).
#[derive(Debug, Clone)]
pub struct RegistryCall {
    pub registry: Registry,
    pub method: String,
    /// The method's name.
    pub span: Span,
    pub context: Context,
    /// Where a `return` ends the function after the call (as
    /// [`Registration::returns_at`]).
    pub returns_at: Option<usize>,
}

/// What a body named as a registration does with a key registered again
/// ([`FnSummary::keeping`]); a rejection is [`FnSummary::rejects`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keeping {
    /// `self.map.insert(k, v)` with no check: the second replaces the first.
    Replaces,
    /// `if self.map.contains_key(k) { return Ok(false) }`, `entry(k).or_insert(v)`:
    /// the first stays, the second is answered, not refused.
    KeepsFirst,
    /// `entry(k).or_default().push(v)`, `self.list.push(v)`: both are kept
    /// (an overload table, a list of handlers).
    Appends,
    /// `*entry(k).or_insert(0) |= flags`, `and_modify(..)`: one entry made
    /// of both (a symbol table).
    Merges,
}

/// `if self.map.contains_key(&key) { bail!(..) }`: the parameters the
/// key is made from, and what switches the check off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    /// Parameters (by [`FnSummary`] numbering) the key is built from.
    pub key: Vec<usize>,
    /// The parameter the map is reached through, for a free function
    /// (`fn define(reg: &mut Reg, ..)`); `None`: through `self` or a global.
    pub receiver: Option<usize>,
    /// `!self.<field> && ..` before the check: the field that turns it off.
    pub switch: Option<String>,
    /// `!allow_shadowing && ..` before the check: the parameter that turns
    /// it off (wasmtime's `NameMap::insert(name, cx, allow_shadowing, item)`).
    pub switch_param: Option<usize>,
    /// The check as written, for messages: "`self.map.contains_key(&key)`".
    pub check: String,
    /// The line of the check (1-based), where a message says it is.
    pub line: u32,
    /// The map checked, as written (whitespace removed), for a
    /// `contains_key`: the function must insert into it too.
    pub map: Option<String>,
    /// The key is this field of the key parameter (`var.name` of
    /// `contains_key(&var.name)`): the registered value names itself.
    pub key_field: Option<String>,
}

/// How a call is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallVia {
    /// `x.name(..)`
    Method,
    /// `name(..)`, `module::name(..)`
    Free,
    /// `Type::name(..)`, `Self::name(..)`: an associated function.
    Typed,
}

/// A call a function makes with its parameters among the arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForwardCall {
    /// Last segment of the callee.
    pub callee: String,
    pub via: CallVia,
    /// A method call on `self`: a method of the same type.
    pub on_self: bool,
    /// A method call on a field of `self` (`self.ops.register(..)`): a
    /// registry the function's callers reach through their receiver.
    pub on_self_field: bool,
    /// The field of `self` the receiver is (`self.inner.insert(..)`: `inner`):
    /// its declared type says whose method it calls.
    pub self_field: Option<String>,
    /// A method call whose receiver is reached through this parameter.
    pub receiver: Option<usize>,
    /// That receiver is the parameter itself (`reg`, `*reg`), not a part
    /// of it (`reg.backends`).
    pub receiver_whole: bool,
    /// For each argument (after the receiver of a method call), the
    /// parameters it is built from.
    pub args: Vec<Vec<usize>>,
    /// For each argument, what it is when it may be a switch or a
    /// constant key.
    pub values: Vec<ArgValue>,
    /// For each argument, the parameter it is by its name (`reg`, `&mut
    /// reg`): a registry handed on, not one made from a parameter.
    pub passed: Vec<Option<usize>>,
    /// For each argument, whether it hands one parameter on unchanged
    /// (`name`, `&name`, `name.to_string()`), or as the one name a typed
    /// constructor is given (`Variable::euclidean(name, 1)`): a key that
    /// is the caller's, not made of it (`format!("ext.{name}")`).
    pub kept: Vec<bool>,
    /// Under an `if` or a `match` of the function: it may not run at
    /// every call.
    pub conditional: bool,
}

/// An argument given where a learned registration takes a switch
/// (`self.map.insert(name, cx, self.allow_shadowing, item)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgValue {
    /// `true` or `false`, written.
    Bool(bool),
    /// `self.allow_shadowing`: the caller's own switch field.
    SelfField(String),
    /// A parameter of the caller, passed on.
    Param(usize),
    /// A string literal (`"cpu"`, `"cpu".to_string()`): a constant key.
    Str(String),
    Other,
}

impl FileFacts {
    /// Whether a finding can point into this file: every span a lint reports
    /// (primary or secondary) is that of a registration, a comparison side, a
    /// lowering site, a lowering-platform literal, a call of a singleton
    /// or a suppression comment.
    pub fn may_be_reported(&self) -> bool {
        !(self.registrations.is_empty()
            && self.functions.iter().all(|f| f.singleton_calls.is_empty())
            && self.comparisons.is_empty()
            && self.lowering.is_empty()
            && self.lowering_platforms.is_empty()
            && self.normalized.is_empty()
            && self.handoffs.is_empty()
            && self.field_uses.compared.is_empty()
            && self.directives.directives.is_empty()
            && self.directives.malformed.is_empty())
    }
}

impl FileFacts {
    /// Whether a finding may point into this file for a fact whose lint
    /// reads its crate's structure (modules, `use`s, constants): any but a
    /// call of a singleton ([`Self::may_be_reported`] without those).
    pub fn needs_structure(&self) -> bool {
        !(self.registrations.is_empty()
            && self.comparisons.is_empty()
            && self.lowering.is_empty()
            && self.lowering_platforms.is_empty()
            && self.normalized.is_empty()
            && self.handoffs.is_empty()
            && self.field_uses.compared.is_empty()
            && self.directives.directives.is_empty()
            && self.directives.malformed.is_empty())
    }

    /// Whether a finding may start from this file: [`Self::may_be_reported`],
    /// but a singleton's call counts only in a function calling two or one
    /// in a loop (a lone call is reported only as a helper's, through a
    /// function that calls it and another).
    pub fn may_start_finding(&self) -> bool {
        let singletons = (self.functions.iter())
            .any(|f| f.singleton_calls.len() > 1 || f.singleton_calls.iter().any(|c| c.in_loop));
        singletons || self.needs_structure()
    }
}

impl FileFacts {
    /// Whether the file declares nothing (its facts are as good as the
    /// defaults): the crate pass reads nothing of it. Its scopes may be
    /// function bodies', which no path names and which hold nothing when the
    /// file declares nothing.
    pub fn is_empty(&self) -> bool {
        // Every field named: a new one must say whether it counts.
        let FileFacts {
            consts,
            registrations: _,
            unregistrations,
            comparisons: _,
            lowering: _,
            value_sets,
            platform_fns,
            context_fns,
            fields,
            returners,
            str_arrays,
            lowering_platforms: _,
            scopes,
            mod_decls,
            uses,
            types,
            directives: _,
            first_item: _,
            functions,
            canonicalizers,
            state_writes,
            registry_calls: _,
            normalized: _,
            normalizers,
            handoffs: _,
            field_uses,
        } = self;
        !self.may_be_reported()
            && consts.is_empty()
            && value_sets.is_empty()
            && platform_fns.is_empty()
            && context_fns.is_empty()
            && fields.is_empty()
            && returners.is_empty()
            && str_arrays.is_empty()
            && unregistrations.is_empty()
            && scopes.iter().flatten().all(ScopeSegment::is_block)
            && mod_decls.is_empty()
            && uses.is_empty()
            && types.is_empty()
            && functions.is_empty()
            && canonicalizers.is_empty()
            && state_writes.is_empty()
            && normalizers.is_empty()
            && field_uses.is_empty()
    }
}

/// One step of a scope's path: a module, or a function body below one.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ScopeSegment {
    /// `mod name { .. }`, or `mod name;` on the way to a file.
    Module(String),
    /// The body of function `name`, the walk's function `id` (functions of
    /// one name are many: methods of several types, nested ones): what is
    /// declared there is visible there only, and no path names the body.
    Block { name: String, id: u32 },
}

impl ScopeSegment {
    pub fn is_block(&self) -> bool {
        matches!(self, ScopeSegment::Block { .. })
    }

    /// The module's name; `None` for a function body.
    pub fn module(&self) -> Option<&str> {
        match self {
            ScopeSegment::Module(name) => Some(name),
            ScopeSegment::Block { .. } => None,
        }
    }
}

/// Where each module path is in [`FileFacts::scopes`], found by hashing:
/// a search of the list for each inline module cost the square of their
/// number (10,000 `mod`s in a file). Knows the paths given to it, and the
/// file's own scope.
#[derive(Default)]
pub struct ScopeIndex(std::collections::HashMap<Vec<ScopeSegment>, u32>);

impl ScopeIndex {
    /// The index of `path` in `scopes`, added at the end when new.
    pub fn of(&mut self, scopes: &mut Vec<Vec<ScopeSegment>>, path: Vec<ScopeSegment>) -> u32 {
        if path.is_empty() {
            return 0;
        }
        *self.0.entry(path).or_insert_with_key(|path| {
            scopes.push(path.clone());
            (scopes.len() - 1) as u32
        })
    }
}

impl Default for FileFacts {
    fn default() -> Self {
        FileFacts {
            consts: Vec::new(),
            registrations: Vec::new(),
            unregistrations: Vec::new(),
            comparisons: Vec::new(),
            lowering: Vec::new(),
            value_sets: Vec::new(),
            platform_fns: Vec::new(),
            context_fns: Vec::new(),
            fields: Vec::new(),
            returners: Vec::new(),
            str_arrays: Vec::new(),
            lowering_platforms: Vec::new(),
            scopes: vec![Vec::new()],
            mod_decls: Vec::new(),
            uses: Vec::new(),
            types: Vec::new(),
            directives: Default::default(),
            first_item: None,
            functions: Vec::new(),
            canonicalizers: Vec::new(),
            state_writes: Vec::new(),
            registry_calls: Vec::new(),
            normalized: Vec::new(),
            normalizers: Vec::new(),
            handoffs: Vec::new(),
            field_uses: FieldUses::default(),
        }
    }
}

// Suppression comments, as `syntax::comments` reads them.

/// One directive as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Directive {
    /// The whole comment.
    pub span: Span,
    /// `allow-file` rather than `allow`.
    pub file_wide: bool,
    /// The 1-based line whose findings it covers (unused for `allow-file`);
    /// `None` when no code follows it directly.
    pub line: Option<usize>,
    /// The lints it names.
    pub lints: Vec<Named>,
}

/// A lint name in a directive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    /// As written (messages quote it).
    pub text: String,
    pub span: Span,
    /// The lint of that name, found as the directive is read; `None`: no
    /// lint has it.
    pub lint: Option<LintId>,
}

/// A comment that starts like a directive but cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed {
    pub span: Span,
    pub message: String,
}

/// The directives of a file, and the comments that failed to be ones.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Directives {
    pub directives: Vec<Directive>,
    pub malformed: Vec<Malformed>,
}

/// A name the analysis learned from the code it read rather than from the
/// configuration (issue 19), with the place that taught it: shown by
/// `backend-lint config` and in the findings that rest on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inferred {
    pub kind: InferredKind,
    /// The function, method or constant, as the code names it.
    pub name: String,
    /// Where it is defined: the place that made it count.
    pub span: crate::model::source::Span,
    /// The 1-based line of `span`'s start, for "file:line" where the
    /// file's text is no longer held.
    pub line: u32,
    /// Why it counts, a clause for messages: "rejects a second insertion
    /// of its key (`self.map.contains_key(&key)`)", "wraps `register`".
    pub why: String,
    /// A registration's key: the indexes (0-based, the receiver not
    /// counted) of its arguments making it up, as `key` in the
    /// configuration. Empty for the other kinds, and when no configuration
    /// says what was learned: a helper registering constant keys, a method
    /// learned on `self` only, one with a switch argument.
    pub key: Vec<usize>,
}

/// What an [`Inferred`] name is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum InferredKind {
    /// Registers under a key and rejects a second one, or wraps such a function.
    Registration,
    /// Returns a raw platform value.
    Source,
    /// Returns a canonicalized platform value.
    Canonicalizer,
    /// Returns only string literals: the closed set of values it can give.
    ValueSet,
    /// Normalizes a string parameter ([`NormalizerFn`]).
    Normalizer,
}

#[cfg(test)]
mod normalized_tests {
    use super::{ComparisonKind, Normalized};

    /// Every string of up to `len` chars over `alphabet`.
    fn strings(alphabet: &[char], len: usize) -> Vec<String> {
        let mut all = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..len {
            last = (last.iter())
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    /// What `replaced` claims gone is gone from every output std gives,
    /// and what it keeps knowing holds too.
    #[test]
    fn a_replaced_string_said_gone_is_gone_from_every_output() {
        let parts = strings(&['a', 'b', 'A', ' '], 2);
        let inputs = strings(&['a', 'b', 'A', ' '], 5);
        let mut claims = 0;
        for from in parts.iter().filter(|p| !p.is_empty()) {
            for to in &parts {
                for before in [
                    Normalized::default(),
                    Normalized::default().cased(false).trim(),
                ] {
                    let after = before.clone().replaced(from, to);
                    for s in inputs.iter().filter(|s| !s.is_empty()) {
                        let s = match before.no_upper {
                            true => s.to_lowercase().trim().to_string(),
                            false => s.clone(),
                        };
                        let out = s.replace(from.as_str(), to);
                        for gone in &after.without {
                            claims += 1;
                            assert!(
                                !out.contains(gone.as_str()),
                                "{s:?}.replace({from:?}, {to:?}) = {out:?}"
                            );
                        }
                        if after.no_upper {
                            assert!(!out.bytes().any(|b| b.is_ascii_uppercase()), "{out:?}");
                        }
                        if after.trimmed {
                            assert_eq!(out.trim(), out, "{s:?}.replace({from:?}, {to:?})");
                        }
                    }
                }
            }
        }
        assert!(claims > 1000, "the claims were tried: {claims}");
    }

    #[test]
    fn a_replacement_that_can_make_it_again_says_nothing() {
        let gone = |from: &str, to: &str| Normalized::default().replaced(from, to).without;
        // `"abb".replace("ab", "a")` is `"ab"`; `"aabb".replace("ab", "")` too.
        assert!(gone("ab", "a").is_empty());
        assert!(gone("ab", "").is_empty());
        assert!(gone("ab", "b").is_empty());
        assert!(gone("::", ":").is_empty());
        assert!(gone("x", "xx").is_empty());
        assert_eq!(gone("darwin", "macos"), ["darwin"]);
        assert_eq!(gone(":", ""), [":"]);
        assert_eq!(gone("::", "-"), ["::"]);
    }

    #[test]
    fn a_literal_is_judged_by_what_the_comparison_asks() {
        let lower = Normalized::default().cased(false);
        assert!(
            lower
                .excludes("NVIDIA", ComparisonKind::StartsWith)
                .is_some()
        );
        assert!(lower.excludes("nvidia", ComparisonKind::Eq).is_none());
        assert!(
            lower
                .excludes("NVIDIA", ComparisonKind::EqIgnoreAsciiCase)
                .is_none()
        );
        assert!(lower.excludes("NVIDIA", ComparisonKind::AssertNe).is_none());
        let trimmed = Normalized::default().trim();
        assert!(trimmed.excludes(" x", ComparisonKind::StartsWith).is_some());
        assert!(trimmed.excludes(" x", ComparisonKind::EndsWith).is_none());
        assert!(
            trimmed
                .excludes(" x ", ComparisonKind::StrContains)
                .is_none()
        );
        assert!(trimmed.excludes("x\n", ComparisonKind::Eq).is_some());
        // Lowercasing after a replacement may make the replaced string again.
        let again = Normalized::default().replaced("X", "y").cased(false);
        assert!(again.excludes("x", ComparisonKind::Eq).is_none());
    }
}
