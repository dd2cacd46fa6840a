//! The per-file pass: one walk over a parsed file that extracts [`FileFacts`].
//!
//! A thin visitor (`Walker`) keeps where the walk stands ([`Cx`]: local
//! bindings and what they hold, raw or canonical platform values; the
//! [`Context`] of the code being walked, cfg predicates, branches, guards,
//! test scope; the module and function) and records the structure (consts,
//! `use`s, `mod`s, types). It hands each node to one collector per kind of
//! fact, each with its own state: registrations (`registry.rs`),
//! comparisons (`comparisons.rs`), lowering contexts (`lowering.rs`), value
//! sets and functions returning platform values (`value_sets.rs`,
//! `platform_fns.rs`), function summaries (`summary.rs`). Each collector
//! declares the names it starts facts from (`collect.rs`), and the fast
//! path takes its triggers from those declarations (`triggers.rs`).

pub mod collect;
mod comparisons;
mod expand;
mod lowering;
mod macros;
mod normalizers;
mod platform_fns;
pub mod triggers;

#[doc(hidden)]
#[cfg(feature = "testing")]
pub use macros::walk_every_macro;
mod registry;
mod singleton;
pub use singleton::{
    FLAG_CALLS, set_once_statics, sets_once_static, sets_static, static_mechanism,
};
mod summary;
pub use summary::MAX_CALLED;
mod value_sets;

use comparisons::*;
use lowering::*;
pub(crate) use macros::flatten_use;
pub(crate) use macros::macro_worth_expanding;
use registry::*;
use summary::Summaries;
use value_sets::ValueSets;

use syn::visit::{self, Visit};
use syn::{Expr, Pat};

use crate::analysis::values::{
    backend_request, const_value, field_name, is_platforms_collection, parse_args, path_last, peel,
    peel_step, platform_list, str_expr,
};
use crate::config::{CallReceiver, NameUse, Names, Vocabulary};
use crate::model::cfg::Cfg;
use crate::model::diagnostic::Span;
use crate::model::facts::{
    BackendRequest, Comparison, ComparisonKind, ConstDef, Context, FileFacts, LoweringContext,
    ModDecl, Operand, ReceiverType, Registration, Registry, RegistryCall, RegistryKind, ScopeIndex,
    ScopeSegment, Side, StateWrite, Statement, StrExpr, Unregistration, UseDecl,
};
use crate::syntax::ends::expr_ends;
use crate::syntax::parse::{LineTable, SpanConv};
use collect::{Asks, Collector, Start};

/// Parse a file's tokens as `syn::File` does (inner attributes, then items
/// to the end) and extract its facts, walking each item as soon as it is
/// parsed, so the walk reads syntax still in the cache and the file's tree
/// is never held whole. The same facts as walking a parsed `syn::File`.
///
/// `parsed` is the text syn reads, the file with parts blanked (same
/// offsets and lines: doc comments, bodies that hold nothing), whose
/// columns proc-macro2 counts; `text` is the file as written, which every
/// fact quotes (a statement a fix removes, a side's text).
pub fn extract(
    input: syn::parse::ParseStream,
    conv: SpanConv,
    text: &str,
    parsed: &str,
    vocab: &Vocabulary,
) -> syn::Result<FileFacts> {
    let mut walker = Walker::new(conv, text, parsed, vocab);
    for attr in syn::Attribute::parse_inner(input)? {
        if let Some(cfg) = Cfg::from_attr(&attr) {
            walker.cx.ctx.cfgs.push(cfg);
        }
    }
    if !input.is_empty() {
        walker.cx.facts.first_item = Some(conv.span(input.span()).start);
    }
    while !input.is_empty() {
        let item: syn::Item = input.parse()?;
        walk_one(&mut walker, &item);
    }
    Ok(walker.finish())
}

/// Walk one item. Kept out of line so that a profiler can count the walk
/// apart from the parse: `valgrind --tool=callgrind --toggle-collect='*walk_one*'`.
#[inline(never)]
fn walk_one(walker: &mut Walker, item: &syn::Item) {
    walker.visit_item(item);
}

/// One item of a file, parsed on its own.
pub(crate) enum AnyItem {
    Item(syn::Item),
    Impl(syn::ImplItem),
    Trait(syn::TraitItem),
    Foreign(syn::ForeignItem),
}

/// The facts of one item walked as if it stood at the root of a file with
/// no `cfg`: the prefilter's structure reader hands over the items it does
/// not read itself, and places what they declare in their module.
pub(crate) fn extract_item(item: &AnyItem, text: &str, vocab: &Vocabulary) -> FileFacts {
    let mut walker = Walker::new(SpanConv { file: 0 }, text, text, vocab);
    match item {
        AnyItem::Item(i) => walker.visit_item(i),
        AnyItem::Impl(i) => walker.visit_impl_item(i),
        AnyItem::Trait(i) => walker.visit_trait_item(i),
        AnyItem::Foreign(i) => walker.visit_foreign_item(i),
    }
    walker.cx.facts
}

impl<'t> Walker<'t> {
    fn new(conv: SpanConv, text: &'t str, parsed: &'t str, vocab: &'t Vocabulary) -> Walker<'t> {
        Walker {
            cx: Cx {
                conv,
                text,
                parsed,
                vocab,
                mentioned: triggers::mention_firsts(vocab),
                facts: FileFacts::default(),
                scope_index: ScopeIndex::default(),
                frame: Frame::new(),
                params: (None, Vec::new()),
                type_params: Vec::new(),
                ctx: Context::default(),
                next_id: 0,
                bindings: 0,
                in_canonicalizer: 0,
                in_test_code: 0,
                closure_params: None,
                scope: 0,
                macros: Vec::new(),
                expansion: None,
                statement: None,
                self_type: None,
                display_impl: false,
                function_call: None,
                body_pending: false,
                lines: std::cell::OnceCell::new(),
            },
            registrations: Registrations::default(),
            comparisons: Comparisons::default(),
            lowering: Lowering::default(),
            values: ValueSets::default(),
            summaries: Summaries::default(),
        }
    }

    /// The facts of the file, once it is walked whole: what waited for the
    /// end of the file (arrays declared after their use) added.
    fn finish(mut self) -> FileFacts {
        self.values.finish(&mut self.cx);
        self.comparisons.finish(&mut self.cx, &self.values);
        let facts = &mut self.cx.facts;
        singleton::qualify_imported(&mut facts.functions, &facts.uses, &facts.returners);
        self.cx.facts
    }
}

/// What belongs to the function being walked, replaced whole for a
/// function nested in it ([`Walker::in_function`]).
struct Frame {
    /// The local bindings, by block, innermost last.
    scopes: Vec<Vec<Binding>>,
    /// The name bound by the `let` whose initialiser is being walked.
    let_name: Option<String>,
    /// The call that is the whole initialiser of that `let` (by [`callee_id`]).
    let_init: Option<usize>,
    /// Offsets of the `return`s that end the function after the code being
    /// walked (the enclosing `return` expression, later `return` statements
    /// of enclosing blocks).
    returns: Vec<usize>,
    /// Inside a closure body.
    in_closure: u32,
    /// Locals compared as written with a platform name, and locals handed
    /// to calls ([`Cx::hand_offs`] pairs them when the function ends).
    compared: Vec<normalizers::Compared>,
    handed: Vec<normalizers::Handed>,
}

impl Frame {
    fn new() -> Frame {
        Frame {
            scopes: vec![Vec::new()],
            let_name: None,
            let_init: None,
            returns: Vec::new(),
            in_closure: 0,
            compared: Vec::new(),
            handed: Vec::new(),
        }
    }
}

/// What a local binding holds.
#[derive(Debug, Clone)]
struct Binding {
    name: String,
    value: Operand,
    /// Where the value came from, for messages: "`dev.platform()`".
    origin: String,
    /// `Some(id)` when initialised with a new value (`Registry::new()`,
    /// `Registry::default()`, a struct literal): a registry of its own.
    fresh: Option<(u32, RegistryKind)>,
    /// Its type, when the code says it (`b: Backend`, `Backend::Vulkan`).
    ty: Option<String>,
    /// The call whose result it holds (`let n = b.as_str();`).
    returned: Option<crate::model::facts::ValueCall>,
    /// The literal platform list it holds (`let targets = ["gpu"];`), with
    /// each name's span.
    platforms: Option<Vec<(StrExpr, Span)>>,
    /// The `let` that made it, numbered by the walk: two `let mut group =
    /// runner.new_group()` in two blocks are two variables, so two
    /// registries, whatever they are named.
    local: Option<u32>,
    /// The type a constructor made it of (`RenderGraph::default()`,
    /// `Scene { .. }`): a receiver's type, for learned methods.
    made: Option<String>,
    /// A struct literal's fields that name something (`Variable { name:
    /// POSE_VAR.to_string(), .. }`): the key of a registration keyed by a
    /// field of the value ([`crate::config::LearnedFunction::key_field`]).
    named_fields: Vec<(String, StrExpr)>,
    /// What std normalizers made of an immutable local's value, and the
    /// call as written (`let os = t.replace("darwin", "macos");`).
    normalized: Option<(crate::model::facts::Normalized, String)>,
    /// This binding among all of the file's (a shadowing is another).
    id: u32,
}

/// The walk: a visitor that keeps where it stands ([`Cx`]) and tells each
/// collector what it sees. Each collector keeps the state of its own kind
/// of fact and declares what it starts facts from
/// ([`triggers::COLLECTORS`]).
struct Walker<'t> {
    cx: Cx<'t>,
    /// Registrations and unregistrations (`registry.rs`).
    registrations: Registrations,
    /// Platform comparisons (`comparisons.rs`).
    comparisons: Comparisons,
    /// Lowering contexts and lowering platforms (`lowering.rs`).
    lowering: Lowering,
    /// Value sets, functions returning platform values, string arrays and
    /// struct fields (`value_sets.rs`, `platform_fns.rs`).
    values: ValueSets,
    /// Function summaries, for the learning (`summary.rs`).
    summaries: Summaries,
}

/// Where the walk stands, which every collector reads: the file and its
/// positions, the vocabulary, the local bindings and what they hold, the
/// [`Context`] (cfg predicates, branches, guards, test and run-once
/// scopes), the module and function being walked. The structure (consts,
/// `use`s, `mod` declarations, types, module scopes), which the visitor
/// records itself, and the facts of every collector are written to
/// `facts`.
pub(super) struct Cx<'t> {
    conv: SpanConv,
    /// The file as written.
    text: &'t str,
    /// What syn parsed: `text` with parts blanked, whose positions the
    /// line table reads ([`extract`]).
    parsed: &'t str,
    vocab: &'t Vocabulary,
    /// What the vocabulary's names start with ([`triggers::mention_firsts`]),
    /// for the macro text check; once per file, not per macro.
    mentioned: crate::config::FirstBytes,
    facts: FileFacts,
    /// Where each inline module's path is in `facts.scopes` (function
    /// bodies' scopes are each new and never looked up).
    scope_index: ScopeIndex,
    /// The function being walked: its bindings, its `let` and `return`s.
    frame: Frame,
    /// The parameters of the function being walked, by name, and where its
    /// name starts: a registry rooted at one is the caller's
    /// ([`Registry::Param`]).
    params: (Option<proc_macro2::Span>, Vec<String>),
    /// The type parameters of the `impl`s, traits and functions around:
    /// `add_plugin::<P>()` in a generic function is keyed by its caller's
    /// type, not by `P`.
    type_params: Vec<String>,
    ctx: Context,
    next_id: u32,
    /// The local bindings made so far ([`Binding::id`]).
    bindings: u32,
    /// Inside a canonicalizer (`fn canonicalize_platform`): raw comparisons belong there.
    in_canonicalizer: u32,
    /// Inside `#[cfg(test)]` code: every function is its own test scope.
    in_test_code: u32,
    /// What the parameters of the next closure hold, and where that came
    /// from (set by the call that takes it).
    closure_params: Option<(Operand, String)>,
    /// The inline module being walked (index into `facts.scopes`).
    scope: u32,
    /// The file's `macro_rules!` macros defined so far, by name (a later
    /// definition shadows an earlier one, as in rustc's textual scope).
    macros: Vec<(String, std::rc::Rc<Vec<expand::Rule>>)>,
    /// The call of a local macro whose expansion is being walked, the
    /// macro's name and how deep expansions nest.
    expansion: Option<(Span, String, u32)>,
    /// The call the statement being walked is: a registration that is that
    /// call may be removed by a fix.
    statement: Option<StatementCall>,
    /// The type `self` is in the methods being walked: the `impl`'s self
    /// type, or the trait of a default method.
    self_type: Option<String>,
    /// The `impl` being walked is of `Display`.
    display_impl: bool,
    /// The function being walked, as its calls name it: comparisons of its
    /// own value inside it are how it is made.
    function_call: Option<crate::model::facts::ValueCall>,
    /// The next block walked is a function's body.
    body_pending: bool,
    /// Byte offsets of positions, made when first needed.
    lines: std::cell::OnceCell<LineTable<'t>>,
}

const PASSTHROUGH_BINDERS: &[&str] = &["Some", "Ok"];

/// `Option`/`Result` methods whose closure is given the value inside:
/// `dev.platform_name().is_some_and(|p| p == "cuda")`.
const RAW_ADAPTERS: &[&str] = &[
    "map",
    "map_or",
    "and_then",
    "filter",
    "inspect",
    "is_some_and",
    "is_ok_and",
    "is_none_or",
];

impl<'t> Cx<'t> {
    /// A local macro is expanded only when its definition names something a
    /// fact starts from ([`macros::macro_worth_expanding`]).
    fn macro_worth_expanding(&self, mac: &syn::Macro) -> bool {
        let range = self.lines().range(mac.delimiter.span().join());
        let text = self.text.get(range).unwrap_or("");
        macros::macro_worth_expanding(text, self.vocab)
    }

    /// The vocabulary as the registrations collector asks it.
    fn registration_names(&self) -> Asks<'t> {
        self.asks(&registry::COLLECTOR)
    }

    /// The vocabulary as the comparisons collector asks it.
    fn comparison_names(&self) -> Asks<'t> {
        self.asks(&comparisons::COLLECTOR)
    }

    /// The vocabulary as the lowering collector asks it.
    fn lowering_names(&self) -> Asks<'t> {
        self.asks(&lowering::COLLECTOR)
    }

    fn asks(&self, collector: &'static Collector) -> Asks<'t> {
        Asks {
            vocab: self.vocab,
            collector,
        }
    }

    fn id(&mut self) -> u32 {
        self.next_id += 1;
        self.next_id
    }

    fn span<T: syn::spanned::Spanned + ?Sized>(&self, node: &T) -> Span {
        self.span_at(node.span())
    }

    pub(super) fn span_at(&self, at: proc_macro2::Span) -> Span {
        let range = self.lines().range(at);
        Span {
            file: self.conv.file,
            start: range.start,
            end: range.end,
        }
    }

    fn lines(&self) -> &LineTable<'t> {
        self.lines.get_or_init(|| LineTable::new(self.parsed))
    }

    /// The byte offset where a span starts.
    fn start_of(&self, span: proc_macro2::Span) -> usize {
        self.lines().offset(span.start())
    }

    /// The source text of a node with whitespace removed (receivers, primitives).
    fn compact_text<T: syn::spanned::Spanned + ?Sized>(&self, node: &T) -> String {
        let s = self.span(node);
        self.text
            .get(s.start..s.end)
            .unwrap_or("")
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect()
    }

    /// Where a binding's value came from, for messages; only platform values
    /// are ever named in one, so nothing is computed for the others.
    fn origin_text(&self, e: &Expr, value: &Operand) -> String {
        if may_be_platform(value) {
            self.short_text(e)
        } else {
            String::new()
        }
    }

    /// The span of an expression, from its first and last tokens where
    /// [`expr_ends`] reads them (no printing of the whole node).
    fn expr_span(&self, e: &Expr) -> Span {
        match expr_ends(e) {
            Some((first, last)) => Span {
                file: self.conv.file,
                start: self.lines().offset(first.start()),
                end: self.lines().offset(last.end()),
            },
            None => self.span(e),
        }
    }

    /// The source text of an expression, on one line and shortened, for
    /// messages.
    fn short_text(&self, e: &Expr) -> String {
        self.short_text_at(self.expr_span(e))
    }

    /// [`Cx::short_text`] of the text at a span.
    fn short_text_at(&self, s: Span) -> String {
        let raw = self.text.get(s.start..s.end).unwrap_or("");
        let one_line: String = raw
            .lines()
            .map(strip_line_comment)
            .flat_map(str::split_whitespace)
            .collect::<Vec<_>>()
            .join(" ")
            .replace(" .", ".");
        if one_line.chars().count() > 60 {
            let cut: String = one_line.chars().take(57).collect();
            format!("{cut}...")
        } else {
            one_line
        }
    }

    /// A statement as a fix removes it: with its line when nothing else is
    /// on it, so no blank line is left.
    fn statement_of(&self, span: Span) -> Statement {
        let bytes = self.text.as_bytes();
        let line_start = self.text[..span.start].rfind('\n').map_or(0, |i| i + 1);
        let rest = &self.text[span.end..];
        let line_end = rest
            .find('\n')
            .map_or(self.text.len(), |i| span.end + i + 1);
        let blank = |b: &[u8]| b.iter().all(u8::is_ascii_whitespace);
        let whole_line = blank(&bytes[line_start..span.start]) && blank(&bytes[span.end..line_end]);
        let (start, end) = match whole_line {
            true => (line_start, line_end),
            false => (span.start, span.end),
        };
        Statement {
            removal: Span { start, end, ..span },
            text: self.text[span.start..span.end].to_string(),
        }
    }

    fn lookup(&self, name: &str) -> Option<&Binding> {
        (self.frame.scopes.iter())
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|b| b.name == name)
    }

    /// `x = value;` for a local `x`. Assigned in the scope that declared it,
    /// `x` holds the new value; assigned in a nested block (a branch, a
    /// loop), it may hold either afterwards: nothing we track.
    fn rebind(&mut self, name: &str, value: Operand, origin: String) {
        let innermost = self.frame.scopes.len() - 1;
        for (depth, scope) in self.frame.scopes.iter_mut().enumerate().rev() {
            if let Some(b) = scope.iter_mut().rev().find(|b| b.name == name) {
                // A list assigned again is not followed: none is known.
                b.platforms = None;
                if depth == innermost {
                    b.value = value;
                    b.origin = origin;
                } else {
                    b.value = Operand::Other;
                    b.origin = String::new();
                }
                return;
            }
        }
    }

    fn bind(&mut self, name: String, value: Operand, origin: String) {
        self.bindings = self.bindings.wrapping_add(1);
        let id = self.bindings;
        let scope = self.frame.scopes.last_mut().expect("a scope is open");
        scope.push(Binding {
            id,
            name,
            value,
            origin,
            fresh: None,
            ty: None,
            returned: None,
            platforms: None,
            local: None,
            made: None,
            named_fields: Vec::new(),
            normalized: None,
        });
    }
}

impl Walker<'_> {
    fn with_scope(&mut self, f: impl FnOnce(&mut Self)) {
        self.cx.frame.scopes.push(Vec::new());
        f(self);
        self.cx.frame.scopes.pop();
    }

    /// Run `f` with extra context (cfg, branch, guard) pushed.
    fn with_context(
        &mut self,
        cfgs: Vec<Cfg>,
        branch: Option<(u32, u32)>,
        guards: Vec<StrExpr>,
        f: impl FnOnce(&mut Self),
    ) {
        let saved = (
            self.cx.ctx.cfgs.len(),
            self.cx.ctx.branches.len(),
            self.cx.ctx.guards.len(),
        );
        let entering_test = cfgs.iter().any(Cfg::is_test);
        self.cx.ctx.cfgs.extend(cfgs);
        self.cx.ctx.branches.extend(branch);
        self.cx.ctx.guards.extend(guards);
        self.cx.in_test_code += u32::from(entering_test);
        f(self);
        self.cx.in_test_code -= u32::from(entering_test);
        self.cx.ctx.cfgs.truncate(saved.0);
        self.cx.ctx.branches.truncate(saved.1);
        self.cx.ctx.guards.truncate(saved.2);
    }

    fn attr_cfgs(attrs: &[syn::Attribute]) -> Vec<Cfg> {
        attrs.iter().filter_map(Cfg::from_attr).collect()
    }

    fn in_function(&mut self, is_test: bool, name: &str, f: impl FnOnce(&mut Self)) {
        let outer = std::mem::replace(&mut self.cx.frame, Frame::new());
        let saved_test = self.cx.ctx.test_scope;
        let saved_function = self.cx.ctx.function;
        self.cx.ctx.function = self.cx.id();
        if is_test || self.cx.in_test_code > 0 {
            self.cx.ctx.test_scope = Some(self.cx.id());
        }
        let canonicalizer = u32::from(self.cx.comparison_names().has(Names::Canonicalizers, name));
        self.cx.in_canonicalizer += canonicalizer;
        self.lowering.enter_fn();
        // Items and `use`s inside a body are visible in that body only: a
        // block scope of its own below the module.
        let saved_scope = self.cx.scope;
        let mut block = self.cx.facts.scopes[self.cx.scope as usize].clone();
        block.push(ScopeSegment::Block {
            name: name.to_string(),
            id: self.cx.ctx.function,
        });
        self.cx.facts.scopes.push(block);
        self.cx.scope = (self.cx.facts.scopes.len() - 1) as u32;
        f(self);
        self.cx.hand_offs();
        self.cx.scope = saved_scope;
        self.lowering.leave_fn(&mut self.cx);
        self.cx.in_canonicalizer -= canonicalizer;
        self.cx.ctx.test_scope = saved_test;
        self.cx.ctx.function = saved_function;
        self.cx.frame = outer;
    }
}

/// The names a function's parameters bind (`self` not counted).
fn param_names(sig: &syn::Signature) -> Vec<String> {
    (sig.inputs.iter())
        .filter_map(|a| match a {
            syn::FnArg::Typed(t) => match &*t.pat {
                Pat::Ident(i) => Some(i.ident.to_string()),
                _ => None,
            },
            syn::FnArg::Receiver(_) => None,
        })
        .collect()
}

/// A statement that is a call ended by `;` (behind `.unwrap()`,
/// `.expect(..)`, `?`), by the tokens that place it: the callee's name, the
/// `#` of its first attribute, its `;`. No span of a whole node is
/// computed for each statement (syn prints the node's tokens for one),
/// only for the rare statement a registration is.
#[derive(Clone, Copy)]
struct StatementCall {
    callee: proc_macro2::Span,
    attribute: Option<proc_macro2::Span>,
    semi: proc_macro2::Span,
}

/// The name a call is made by (a method's, a path's last segment), as
/// [`Registrations::registration`] is given it.
fn callee_of(e: &Expr) -> Option<proc_macro2::Span> {
    match e {
        Expr::MethodCall(m) => Some(m.method.span()),
        Expr::Call(c) => match &*c.func {
            Expr::Path(p) => p.path.segments.last().map(|s| s.ident.span()),
            _ => None,
        },
        _ => None,
    }
}

/// The call a statement makes, behind `.unwrap()`, `.expect(..)` and `?`,
/// which leave it the whole statement.
fn called(e: &Expr) -> &Expr {
    match e {
        Expr::Try(t) => called(&t.expr),
        Expr::MethodCall(m) if m.method == "unwrap" || m.method == "expect" => called(&m.receiver),
        _ => e,
    }
}

/// `pub`, as the item tree reads it (`pub(crate)` and the like are not:
/// no other package names them).
fn is_public(vis: &syn::Visibility) -> bool {
    crate::semantic::item_tree::vis_of(vis) == crate::semantic::item_tree::Vis::Public
}

/// `#[test]`, `#[tokio::test]`, `#[rstest]`-style test attributes.
fn is_test_fn(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path()
            .segments
            .last()
            .is_some_and(|s| s.ident == "test" || s.ident == "rstest")
    })
}

/// Attributes of a statement (an item's are the item's own).
pub(super) fn stmt_attrs(s: &syn::Stmt) -> &[syn::Attribute] {
    match s {
        syn::Stmt::Local(l) => &l.attrs,
        syn::Stmt::Macro(m) => &m.attrs,
        syn::Stmt::Expr(e, _) => expr_attrs(e),
        syn::Stmt::Item(_) => &[],
    }
}

fn expr_attrs(e: &Expr) -> &[syn::Attribute] {
    match e {
        Expr::Call(x) => &x.attrs,
        Expr::MethodCall(x) => &x.attrs,
        Expr::Macro(x) => &x.attrs,
        Expr::Block(x) => &x.attrs,
        Expr::If(x) => &x.attrs,
        Expr::Match(x) => &x.attrs,
        Expr::ForLoop(x) => &x.attrs,
        Expr::While(x) => &x.attrs,
        Expr::Loop(x) => &x.attrs,
        Expr::Unsafe(x) => &x.attrs,
        Expr::Assign(x) => &x.attrs,
        Expr::Try(x) => &x.attrs,
        // `#[cfg(feature = "std")] return a(); #[cfg(not(..))] return b();`
        Expr::Return(x) => &x.attrs,
        Expr::Await(x) => &x.attrs,
        Expr::Binary(x) => &x.attrs,
        Expr::Break(x) => &x.attrs,
        Expr::Paren(x) => &x.attrs,
        Expr::Reference(x) => &x.attrs,
        Expr::Unary(x) => &x.attrs,
        Expr::Field(x) => &x.attrs,
        Expr::Path(x) => &x.attrs,
        Expr::Closure(x) => &x.attrs,
        Expr::Async(x) => &x.attrs,
        Expr::Struct(x) => &x.attrs,
        Expr::Tuple(x) => &x.attrs,
        _ => &[],
    }
}

/// `cfg!(pred)` and `!cfg!(pred)` in an `if` condition.
fn cfg_condition(cond: &Expr) -> Option<Cfg> {
    match cond {
        Expr::Macro(m) if m.mac.path.is_ident("cfg") => Cfg::parse_tokens(m.mac.tokens.clone()),
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Not(_)) => {
            cfg_condition(&u.expr).map(Cfg::negate)
        }
        Expr::Paren(p) => cfg_condition(&p.expr),
        _ => None,
    }
}

impl<'ast> Visit<'ast> for Walker<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs: &[syn::Attribute] = match item {
            syn::Item::Fn(x) => &x.attrs,
            syn::Item::Mod(x) => &x.attrs,
            syn::Item::Impl(x) => &x.attrs,
            syn::Item::Const(x) => &x.attrs,
            syn::Item::Static(x) => &x.attrs,
            syn::Item::Macro(x) => &x.attrs,
            syn::Item::Trait(x) => &x.attrs,
            _ => &[],
        };
        let type_name = match item {
            syn::Item::Struct(x) => Some(&x.ident),
            syn::Item::Enum(x) => Some(&x.ident),
            syn::Item::Trait(x) => Some(&x.ident),
            syn::Item::Union(x) => Some(&x.ident),
            syn::Item::Type(x) => Some(&x.ident),
            _ => None,
        };
        self.cx.facts.types.extend(type_name.map(|i| i.to_string()));
        if let syn::Item::Struct(s) = item {
            self.values.struct_fields(&mut self.cx, s);
        }
        if let syn::Item::Enum(e) = item {
            self.values.derived_debug(&mut self.cx, e);
        }
        let cfgs = Self::attr_cfgs(attrs);
        self.with_context(cfgs, None, Vec::new(), |w| visit::visit_item(w, item));
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        let ty = type_name(&i.self_ty, |t| self.cx.compact_text(t));
        let saved = self.cx.self_type.replace(ty);
        let display = (i.trait_.as_ref())
            .and_then(|(path, _)| path.segments.last())
            .is_some_and(|s| s.ident == "Display");
        let saved_display = std::mem::replace(&mut self.cx.display_impl, display);
        let saved_trait = std::mem::replace(&mut self.summaries.trait_impl, i.trait_.is_some());
        let outer = self.cx.push_type_params(&i.generics);
        visit::visit_item_impl(self, i);
        self.cx.type_params.truncate(outer);
        self.cx.self_type = saved;
        self.cx.display_impl = saved_display;
        self.summaries.trait_impl = saved_trait;
    }

    fn visit_item_trait(&mut self, t: &'ast syn::ItemTrait) {
        let saved = self.cx.self_type.replace(format!("dyn {}", t.ident));
        let outer = self.cx.push_type_params(&t.generics);
        visit::visit_item_trait(self, t);
        self.cx.type_params.truncate(outer);
        self.cx.self_type = saved;
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        let attrs: &[syn::Attribute] = match item {
            syn::ImplItem::Fn(x) => &x.attrs,
            syn::ImplItem::Const(x) => &x.attrs,
            syn::ImplItem::Macro(x) => &x.attrs,
            _ => &[],
        };
        let cfgs = Self::attr_cfgs(attrs);
        self.with_context(cfgs, None, Vec::new(), |w| visit::visit_impl_item(w, item));
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        // Another package can name a `pub` function of a module, never one
        // of a body.
        let module_level = self.cx.facts.scopes[self.cx.scope as usize]
            .iter()
            .all(|s| !s.is_block());
        let public = module_level && is_public(&f.vis);
        self.summaries
            .summarize(&mut self.cx, &f.sig, &f.block, public);
        let name = f.sig.ident.to_string();
        // A nested function is no method of the impl around it.
        let saved = (
            self.cx.self_type.take(),
            std::mem::take(&mut self.cx.display_impl),
        );
        self.values.value_set(&mut self.cx, &f.sig, &f.block);
        self.cx.returner(&f.sig);
        let call = self.cx.call_of(&name, false);
        self.cx.normalizer(&f.sig, &f.block, call.as_ref());
        (self.cx.self_type, self.cx.display_impl) = saved;
        // The name's span: its offset is looked up only for a registry.
        let this = (Some(f.sig.ident.span()), param_names(&f.sig));
        let params = std::mem::replace(&mut self.cx.params, this);
        let learned_before = self.cx.facts.platform_fns.len();
        let watch = self.summaries.mentioned_in(&self.cx, &f.block);
        let outer = self.cx.push_type_params(&f.sig.generics);
        self.in_function(is_test_fn(&f.attrs), &name, |w| {
            w.registrations.enter_fn(None, watch);
            w.in_platform_fn(&f.sig, call, |w| visit::visit_item_fn(w, f));
            w.registrations.leave_fn(&mut w.cx);
        });
        self.cx.type_params.truncate(outer);
        self.cx.params = params;
        // A canonicalizer a fix may call: configured, or learned just now.
        let learned = (self.cx.facts.platform_fns[learned_before..].iter())
            .any(|p| p.returns == Operand::Canonical && p.call.ty.is_none() && p.call.name == name);
        if module_level && (learned || self.cx.comparison_names().has(Names::Canonicalizers, &name))
        {
            let public = !matches!(f.vis, syn::Visibility::Inherited);
            let def = crate::model::facts::FnDef::of(&f.sig, public, self.cx.scope);
            self.cx.facts.canonicalizers.push(def);
        }
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        let public = self.summaries.trait_impl || is_public(&f.vis);
        self.summaries
            .summarize(&mut self.cx, &f.sig, &f.block, public);
        let name = f.sig.ident.to_string();
        self.values.value_set(&mut self.cx, &f.sig, &f.block);
        self.cx.returner(&f.sig);
        let is_method = matches!(f.sig.inputs.first(), Some(syn::FnArg::Receiver(_)));
        let call = self.cx.call_of(&name, is_method);
        self.cx.normalizer(&f.sig, &f.block, call.as_ref());
        // The name's span: its offset is looked up only for a registry.
        let this = (Some(f.sig.ident.span()), param_names(&f.sig));
        let params = std::mem::replace(&mut self.cx.params, this);
        let watch = self.summaries.mentioned_in(&self.cx, &f.block);
        let method = is_method.then(|| name.clone());
        let outer = self.cx.push_type_params(&f.sig.generics);
        self.in_function(is_test_fn(&f.attrs), &name, |w| {
            w.registrations.enter_fn(method, watch);
            w.in_platform_fn(&f.sig, call, |w| visit::visit_impl_item_fn(w, f));
            w.registrations.leave_fn(&mut w.cx);
        });
        self.cx.type_params.truncate(outer);
        self.cx.params = params;
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        // A default method: its singleton facts only (issue 29:
        // tracing-subscriber's `SubscriberInitExt::init`). What it does
        // with registries an impl may override, and is not learned.
        if let Some(block) = &f.default {
            let before = self.cx.facts.functions.len();
            self.summaries.summarize(&mut self.cx, &f.sig, block, true);
            let mut at = before;
            while at < self.cx.facts.functions.len() {
                let s = &mut self.cx.facts.functions[at];
                if s.singleton.is_none() && s.singleton_calls.is_empty() {
                    self.cx.facts.functions.remove(at);
                } else {
                    // Its singleton facts only: an impl may override what
                    // it does with a registry.
                    s.singleton_only = true;
                    s.rejects = None;
                    s.rejects_after = None;
                    s.keeping = None;
                    s.calls.clear();
                    s.sets_fields.clear();
                    at += 1;
                }
            }
        }
        let name = f.sig.ident.to_string();
        self.in_function(false, &name, |w| {
            w.registrations.enter_fn(None, false);
            visit::visit_trait_item_fn(w, f);
            w.registrations.leave_fn(&mut w.cx);
        });
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        let name = m.ident.to_string();
        let Some((_, items)) = &m.content else {
            self.cx.facts.mod_decls.push(ModDecl {
                name,
                path_attr: path_attr(&m.attrs),
                cfgs: self.cx.ctx.cfgs.clone(),
                scope: self.cx.scope,
            });
            return;
        };
        let mut path = self.cx.facts.scopes[self.cx.scope as usize].clone();
        path.push(ScopeSegment::Module(name));
        let saved = self.cx.scope;
        self.cx.scope = self.cx.scope_index.of(&mut self.cx.facts.scopes, path);
        for item in items {
            self.visit_item(item);
        }
        self.cx.scope = saved;
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut prefix = Vec::new();
        flatten_use(&u.tree, &mut prefix, self.cx.scope, &mut self.cx.facts.uses);
    }

    fn visit_item_const(&mut self, c: &'ast syn::ItemConst) {
        self.const_item(&c.ident, &c.expr);
        visit::visit_item_const(self, c);
    }

    fn visit_item_static(&mut self, s: &'ast syn::ItemStatic) {
        self.const_item(&s.ident, &s.expr);
        visit::visit_item_static(self, s);
    }

    fn visit_impl_item_const(&mut self, c: &'ast syn::ImplItemConst) {
        self.const_item(&c.ident, &c.expr);
        visit::visit_impl_item_const(self, c);
    }

    fn visit_item_macro(&mut self, m: &'ast syn::ItemMacro) {
        // `macro_rules!` bodies are templates, expanded where they are called;
        // `visit_macro_tokens` skips them.
        if m.mac.path.is_ident("macro_rules")
            && let Some(name) = &m.ident
            && self.cx.macro_worth_expanding(&m.mac)
            && let Some(rules) = expand::rules(&m.mac.tokens)
        {
            self.cx
                .macros
                .push((name.to_string(), std::rc::Rc::new(rules)));
        }
        self.visit_macro(&m.mac);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_macro_tokens(mac);
    }

    // Types, generics and attributes are not walked: nothing in them runs
    // but constant expressions (`[u8; N]`, `Foo<{ N + 1 }>`, a const
    // parameter's default, `#[doc = ..]`), where no registry can be
    // mutated, no string compared and nothing lowered. Most of a syntax
    // tree's nodes are in them.
    fn visit_type(&mut self, _: &'ast syn::Type) {}

    fn visit_generics(&mut self, _: &'ast syn::Generics) {}

    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}

    fn visit_block(&mut self, b: &'ast syn::Block) {
        // `{ r.register(..); return; }`: the function ends at that `return`,
        // after what comes before it in the block.
        let returns_at = b.stmts.iter().enumerate().find_map(|(i, s)| match s {
            syn::Stmt::Expr(Expr::Return(r), _) => Some((i, self.cx.start_of(r.return_token.span))),
            _ => None,
        });
        // The function's body: its tail is what the function returns.
        let is_body = std::mem::take(&mut self.cx.body_pending);
        self.with_scope(|w| {
            for (i, stmt) in b.stmts.iter().enumerate() {
                let before = returns_at
                    .filter(|&(at, _)| i < at)
                    .map(|(_, offset)| offset);
                w.cx.frame.returns.extend(before);
                w.visit_stmt(stmt);
                if before.is_some() {
                    w.cx.frame.returns.pop();
                }
            }
            if is_body && let Some(syn::Stmt::Expr(tail, None)) = b.stmts.last() {
                w.values.returned_value(&mut w.cx, Some(tail));
                w.lowering.tail_context(&mut w.cx, tail);
            }
        });
    }

    fn visit_expr_try(&mut self, t: &'ast syn::ExprTry) {
        // `r.register(..)?`: the call is expected to succeed.
        self.registrations.mark_succeeding(&mut self.cx, &t.expr);
        visit::visit_expr_try(self, t);
    }

    fn visit_expr_return(&mut self, r: &'ast syn::ExprReturn) {
        if self.cx.frame.in_closure == 0 {
            self.values.returned_value(&mut self.cx, r.expr.as_deref());
        }
        self.cx
            .frame
            .returns
            .push(self.cx.start_of(r.return_token.span));
        visit::visit_expr_return(self, r);
        self.cx.frame.returns.pop();
    }

    fn visit_expr_closure(&mut self, c: &'ast syn::ExprClosure) {
        // A `return` inside a closure leaves the closure, not the function:
        // no `return` tells anything about code in a closure.
        let saved = std::mem::take(&mut self.cx.frame.returns);
        self.cx.frame.in_closure += 1;
        self.visit_closure(c);
        self.cx.frame.in_closure -= 1;
        self.cx.frame.returns = saved;
    }

    fn visit_stmt(&mut self, s: &'ast syn::Stmt) {
        let cfgs = Self::attr_cfgs(stmt_attrs(s));
        let statement = match s {
            syn::Stmt::Expr(e, Some(semi)) => callee_of(called(e)).map(|callee| StatementCall {
                callee,
                attribute: expr_attrs(e).first().map(|a| a.pound_token.span),
                semi: semi.span,
            }),
            _ => None,
        };
        let saved = std::mem::replace(&mut self.cx.statement, statement);
        if cfgs.is_empty() {
            visit::visit_stmt(self, s);
        } else {
            self.with_context(cfgs, None, Vec::new(), |w| visit::visit_stmt(w, s));
        }
        self.cx.statement = saved;
    }

    fn visit_local(&mut self, l: &'ast syn::Local) {
        let Some(init) = &l.init else {
            self.cx.shadow_all(&l.pat);
            return;
        };
        let name = let_name(&l.pat);
        if let Some(name) = &name {
            self.registrations
                .mark_builder(&mut self.cx, |_| name.clone(), &init.expr);
        }
        let saved = (self.cx.frame.let_name.take(), self.cx.frame.let_init.take());
        if let Some(name) = &name {
            self.lowering.retire_context(&mut self.cx, name, &init.expr);
        }
        self.cx.frame.let_name = name;
        self.cx.frame.let_init = callee_id(self.cx.lines(), peel(&init.expr));
        self.visit_expr(&init.expr);
        (self.cx.frame.let_name, self.cx.frame.let_init) = saved;
        if let Some(name) = let_name(&l.pat) {
            self.registrations
                .inherit_switch(&mut self.cx, &name, &init.expr);
        }
        if let Some((_, diverge)) = &init.diverge {
            self.comparisons.compare_with_patterns(
                &mut self.cx,
                ComparisonKind::LetElse,
                &init.expr,
                [&l.pat],
            );
            self.visit_expr(diverge);
        }
        // `let (a, b) = (x.platform(), y);` binds pairwise.
        if let (Pat::Tuple(pt), Expr::Tuple(et)) = (&l.pat, peel(&init.expr))
            && pt.elems.len() == et.elems.len()
        {
            for (p, e) in pt.elems.iter().zip(et.elems.iter()) {
                let v = self.cx.binding_value(e);
                let origin = self.cx.origin_text(e, &v);
                self.cx.bind_pat(p, v, &origin);
            }
            return;
        }
        let value = self.cx.binding_value(&init.expr);
        let origin = self.cx.origin_text(&init.expr, &value);
        // Read before the new binding shadows a name it may be set from.
        let named = match &l.pat {
            Pat::Type(t) => &*t.pat,
            other => other,
        };
        // A `#[cfg]`-gated `let` may be another one on another target.
        let gated = l.attrs.iter().any(|a| a.path().is_ident("cfg"));
        let normalized = match named {
            Pat::Ident(p) if p.mutability.is_none() && p.subpat.is_none() && !gated => {
                self.cx.normalized_of(&init.expr)
            }
            _ => None,
        };
        self.cx.bind_pat(&l.pat, value, &origin);
        if let Some(normalized) = normalized
            && let Some(b) = self.cx.frame.scopes.last_mut().and_then(|s| s.last_mut())
        {
            b.normalized = Some(normalized);
        }
        if let Some(name) = let_name(&l.pat) {
            let ty = self.cx.let_type(&l.pat, &init.expr);
            let returned = self.cx.value_call(&init.expr);
            self.cx.set_binding_type(&name, ty, returned);
            if let Expr::Struct(st) = strip_parens(&init.expr) {
                let fields: Vec<(String, StrExpr)> = (st.fields.iter())
                    .filter_map(|f| match &f.member {
                        syn::Member::Named(n) => Some((n.to_string(), self.cx.key(&f.expr)?)),
                        syn::Member::Unnamed(_) => None,
                    })
                    .collect();
                if let Some(b) = self.cx.frame.scopes.last_mut().and_then(|s| s.last_mut()) {
                    b.named_fields = fields;
                }
            }
            let platforms = self.cx.held_list(&init.expr);
            if let Some(b) = self.cx.frame.scopes.last_mut().and_then(|s| s.last_mut()) {
                b.platforms = platforms;
            }
        }
        if let Some(name) = let_name(&l.pat)
            && is_constructor(&init.expr)
        {
            let id = self.cx.id();
            let kind = collection_kind(&l.pat, &init.expr);
            if let Some(b) = (self.cx.frame.scopes)
                .last_mut()
                .and_then(|s| s.iter_mut().rev().find(|b| b.name == name))
            {
                b.fresh = Some((id, kind));
            }
        }
        // Not a look-up by a written name (`linker.instance("env")?`): two
        // of one name reach one entry.
        if let Some(name) = let_name(&l.pat)
            && !looks_up_by_literal(&init.expr)
        {
            let id = self.cx.id();
            let made = constructed_type(&init.expr);
            if let Some(b) = (self.cx.frame.scopes)
                .last_mut()
                .and_then(|s| s.iter_mut().rev().find(|b| b.name == name))
            {
                b.local = Some(id);
                b.made = made;
            }
        }
        // `let mut linker = base_linker(&engine)?`: what a learned factory
        // registered, the local holds.
        if let Pat::Ident(p) = named {
            self.registrations
                .factory_result(&mut self.cx, &p.ident, &init.expr);
        }
    }

    fn visit_expr_if(&mut self, e: &'ast syn::ExprIf) {
        let id = self.cx.id();
        let (then_guards, else_guards) = self.cx.guards_of(&e.cond);
        let cfg = cfg_condition(&e.cond);
        let then_cfg: Vec<Cfg> = cfg.iter().cloned().collect();
        let else_cfg: Vec<Cfg> = cfg.map(Cfg::negate).into_iter().collect();
        self.with_scope(|w| {
            let mut conds = Vec::new();
            let_chain(&e.cond, &mut conds);
            for c in conds {
                if let Expr::Let(l) = c {
                    w.visit_expr(&l.expr);
                    w.comparisons.compare_with_patterns(
                        &mut w.cx,
                        ComparisonKind::IfLet,
                        &l.expr,
                        [&*l.pat],
                    );
                    let v = w.cx.binding_value(&l.expr);
                    let origin = w.cx.origin_text(&l.expr, &v);
                    w.cx.bind_pat(&l.pat, v, &origin);
                } else {
                    w.visit_expr(c);
                }
            }
            w.with_context(then_cfg, Some((id, 0)), then_guards, |w| {
                w.visit_block(&e.then_branch)
            });
        });
        if let Some((_, else_branch)) = &e.else_branch {
            self.with_context(else_cfg, Some((id, 1)), else_guards, |w| {
                w.visit_expr(else_branch)
            });
        }
    }

    fn visit_expr_match(&mut self, m: &'ast syn::ExprMatch) {
        self.visit_expr(&m.expr);
        self.comparisons.compare_with_patterns(
            &mut self.cx,
            ComparisonKind::Match,
            &m.expr,
            m.arms.iter().map(|a| &a.pat),
        );
        let id = self.cx.id();
        let value = self.cx.binding_value(&m.expr);
        let origin = self.cx.origin_text(&m.expr, &value);
        for (i, arm) in m.arms.iter().enumerate() {
            let cfgs = Self::attr_cfgs(&arm.attrs);
            let arm_no = u32::try_from(i).unwrap_or(u32::MAX);
            self.with_context(cfgs, Some((id, arm_no)), Vec::new(), |w| {
                w.with_scope(|w| {
                    // `Some(p) if p == "cuda"`: `p` holds what the scrutinee holds.
                    w.cx.bind_pat(&arm.pat, value.clone(), &origin);
                    if let Pat::Guard(g) = &arm.pat {
                        w.visit_expr(&g.guard);
                    }
                    w.visit_expr(&arm.body);
                })
            });
        }
    }

    fn visit_expr_while(&mut self, e: &'ast syn::ExprWhile) {
        self.with_scope(|w| {
            if let Expr::Let(l) = &*e.cond {
                w.visit_expr(&l.expr);
                let v = w.cx.binding_value(&l.expr);
                w.cx.bind_pat(&l.pat, v, "");
            } else {
                w.visit_expr(&e.cond);
            }
            w.visit_block(&e.body);
        });
    }

    fn visit_expr_for_loop(&mut self, f: &'ast syn::ExprForLoop) {
        self.visit_expr(&f.expr);
        // `for p in [..] { lower(&ctx, &[p]) }`: remember the literal list so a
        // context built for one platform and lowered in the loop is caught.
        let loop_list = platform_list(&f.expr, self.cx.scope).map(|l| (l, self.cx.span(&*f.expr)));
        self.with_scope(|w| {
            let v = if is_platforms_collection(&f.expr) {
                Operand::Canonical
            } else {
                Operand::Other
            };
            w.cx.bind_pat(&f.pat, v, "platforms");
            w.visit_block(&f.body);
        });
        if let Some((list, span)) = loop_list {
            self.lowering.for_loop(&mut self.cx, f, list, span);
        }
    }

    fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
        if matches!(b.op, syn::BinOp::Eq(_) | syn::BinOp::Ne(_)) {
            let how = if matches!(b.op, syn::BinOp::Eq(_)) {
                ComparisonKind::Eq
            } else {
                ComparisonKind::Ne
            };
            self.comparisons
                .compare(&mut self.cx, how, &b.left, &[&b.right]);
        }
        visit::visit_expr_binary(self, b);
    }

    fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
        self.cx.note_assigned(&a.left);
        self.registrations.state_write_assign(&mut self.cx, a);
        self.registrations
            .mark_builder(&mut self.cx, |cx| cx.compact_text(&*a.left), &a.right);
        // `ctx = LoweringContext::new()..`: from here on, another context.
        if let Expr::Path(p) = &*a.left
            && let Some(ident) = p.path.get_ident()
        {
            let name = ident.to_string();
            if self.lowering.retire_context(&mut self.cx, &name, &a.right) {
                let saved = self.cx.frame.let_name.replace(name.clone());
                visit::visit_expr_assign(self, a);
                self.cx.frame.let_name = saved;
            } else {
                visit::visit_expr_assign(self, a);
            }
            // `platform = "gpu";`: the binding holds something else from here.
            let value = self.cx.binding_value(&a.right);
            let origin = self.cx.origin_text(&a.right, &value);
            self.cx.rebind(&name, value, origin);
            return;
        }
        self.lowering.field_assign(&mut self.cx, a);
        visit::visit_expr_assign(self, a);
    }

    fn visit_expr_struct(&mut self, s: &'ast syn::ExprStruct) {
        self.lowering.struct_literal(&mut self.cx, s);
        self.cx.note_built(s);
        // Fields are not `let` initialisers of their own.
        let saved = self.cx.frame.let_name.take();
        visit::visit_expr_struct(self, s);
        self.cx.frame.let_name = saved;
    }

    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        self.cx.note_call(c);
        let args: Vec<&Expr> = c.args.iter().collect();
        let mut once = false;
        if let Expr::Path(p) = &*c.func
            && let Some(last) = p.path.segments.last()
        {
            let name = last.ident.to_string();
            self.registrations
                .call(&mut self.cx, c, p, &last.ident, &name, &args);
            self.lowering.call(&mut self.cx, &name, &args);
            // `Lazy::new(|| ..)`, `LazyLock::new(|| ..)`: runs once.
            let segs = &p.path.segments;
            once = segs.len() >= 2
                && segs[segs.len() - 1].ident == "new"
                && ["Lazy", "LazyLock", "LazyCell"]
                    .iter()
                    .any(|k| segs[segs.len() - 2].ident == k);
        }
        if once {
            self.in_once_closure(|w| visit::visit_expr_call(w, c));
        } else {
            visit::visit_expr_call(self, c);
        }
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        self.cx.note_method_call(m);
        let name = m.method.to_string();
        let args: Vec<&Expr> = m.args.iter().collect();
        self.comparisons.method_call(&mut self.cx, m, &name, &args);
        self.lowering.method_call(&mut self.cx, m, &name, &args);
        self.registrations
            .method_call(&mut self.cx, m, &name, &args);
        // Closures over lowering platforms get canonical parameters; those of
        // `Option`/`Result` adapters on a raw platform get the raw string.
        let params = if is_platforms_collection(&m.receiver) {
            Some((Operand::Canonical, "platforms".to_string()))
        } else if RAW_ADAPTERS.contains(&name.as_str())
            && m.args.iter().any(|a| matches!(a, Expr::Closure(_)))
            && self.cx.operand(&m.receiver) == Operand::Raw
        {
            Some((Operand::Raw, self.cx.short_text(&m.receiver)))
        } else {
            None
        };
        self.visit_expr(&m.receiver);
        (self.registrations).after_receiver(&mut self.cx, m, &name, &args);
        let once = self.cx.registration_names().has(Names::RunOnce, &name);
        for arg in &m.args {
            let p = if matches!(arg, Expr::Closure(_)) {
                params.clone()
            } else {
                None
            };
            if once && matches!(arg, Expr::Closure(_)) {
                self.in_once_closure(|w| w.visit_closure_with(arg, p));
            } else {
                self.visit_closure_with(arg, p);
            }
        }
    }
}

impl Walker<'_> {
    fn visit_closure(&mut self, c: &syn::ExprClosure) {
        let params = self.cx.closure_params.take();
        self.with_scope(|w| {
            for p in &c.inputs {
                match &params {
                    Some((v, origin)) => w.cx.bind_pat(p, v.clone(), origin),
                    // `|Device { platform, .. }|` still binds a raw platform.
                    None => w.cx.bind_pat(p, Operand::Other, ""),
                }
            }
            w.visit_expr(&c.body);
        });
    }
}

/// `#[path = ".."]` of a `mod` declaration (the first `path` attribute).
pub(crate) fn path_attr(attrs: &[syn::Attribute]) -> Option<String> {
    attrs
        .iter()
        .find(|a| a.path().is_ident("path"))
        .and_then(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
}

/// The name a `let` binds when it binds one: `let x`, `let mut x: T`.
fn let_name(pat: &Pat) -> Option<String> {
    match pat {
        Pat::Ident(p) => Some(p.ident.to_string()),
        Pat::Type(t) => let_name(&t.pat),
        _ => None,
    }
}

/// The name of a type without its generic arguments: `Table` for
/// `Table<B>`, `a::Table` for `a::Table<B>`; other types (references,
/// tuples) as written.
fn type_name(ty: &syn::Type, text: impl FnOnce(&syn::Type) -> String) -> String {
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => p
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect::<Vec<_>>()
            .join("::"),
        syn::Type::Group(g) => type_name(&g.elem, text),
        syn::Type::Paren(p) => type_name(&p.elem, text),
        other => text(other),
    }
}

/// `Registry::new()`, `Registry::default()`, `Default::default()`,
/// `Registry::with_capacity(..)`, `Registry { .. }`, `vec![..]`: a new value.
fn is_constructor(e: &Expr) -> bool {
    match peel(e) {
        Expr::Struct(_) => true,
        Expr::Macro(m) => m.mac.path.is_ident("vec"),
        Expr::Call(c) => path_last(&c.func)
            .is_some_and(|n| matches!(n.as_str(), "new" | "default" | "with_capacity" | "empty")),
        _ => false,
    }
}

/// A call (or a chain of calls) with a string literal among its arguments.
fn looks_up_by_literal(e: &Expr) -> bool {
    let lit = |a: &Expr| {
        matches!(
            peel(a),
            Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(_),
                ..
            })
        )
    };
    match strip_parens(e) {
        Expr::Try(t) => looks_up_by_literal(&t.expr),
        Expr::Reference(r) => looks_up_by_literal(&r.expr),
        Expr::MethodCall(m) => m.args.iter().any(lit) || looks_up_by_literal(&m.receiver),
        Expr::Call(c) => c.args.iter().any(lit),
        _ => false,
    }
}

/// The type a constructor names: `RenderGraph` of `RenderGraph::new()`,
/// `graph::RenderGraph::default()` or `Scene { .. }`.
fn constructed_type(e: &Expr) -> Option<String> {
    if !is_constructor(e) {
        return None;
    }
    let path = match peel(e) {
        Expr::Struct(s) => &s.path,
        Expr::Call(c) => match &*c.func {
            Expr::Path(p) if p.path.segments.len() >= 2 => {
                let segments = &p.path.segments;
                let ty = segments[segments.len() - 2].ident.to_string();
                return (ty.starts_with(|c: char| c.is_ascii_uppercase()) && ty != "Self")
                    .then_some(ty);
            }
            _ => return None,
        },
        _ => return None,
    };
    let ty = path.segments.last()?.ident.to_string();
    (ty.starts_with(|c: char| c.is_ascii_uppercase()) && ty != "Self").then_some(ty)
}

/// A list or a map, from the constructor (`Vec::new()`, `vec![]`,
/// `HashMap::new()`) or the type written on the `let`
/// (`let m: BTreeMap<..> = Default::default()`).
fn collection_kind(pat: &Pat, init: &Expr) -> RegistryKind {
    let of_name = |name: &str| {
        if name.ends_with("Map") {
            RegistryKind::Map
        } else if matches!(name, "Vec" | "VecDeque" | "SmallVec") {
            RegistryKind::List
        } else {
            RegistryKind::Unknown
        }
    };
    let from_init = match peel(init) {
        Expr::Macro(m) if m.mac.path.is_ident("vec") => RegistryKind::List,
        Expr::Call(c) => match &*c.func {
            Expr::Path(p) if p.path.segments.len() >= 2 => {
                let segments = &p.path.segments;
                of_name(&segments[segments.len() - 2].ident.to_string())
            }
            _ => RegistryKind::Unknown,
        },
        _ => RegistryKind::Unknown,
    };
    match (from_init, pat) {
        (RegistryKind::Unknown, Pat::Type(t)) => match &*t.ty {
            syn::Type::Path(p) => p
                .path
                .segments
                .last()
                .map_or(RegistryKind::Unknown, |s| of_name(&s.ident.to_string())),
            _ => RegistryKind::Unknown,
        },
        (kind, _) => kind,
    }
}

/// Whether a method so named compares its receiver with its argument as the
/// walker reads one (`p.starts_with("x")`, `"x".eq(&p)`, `s.strip_prefix("x")`):
/// what the fast path's normalizer check takes for a comparing place
/// (`prefilter::normalized`).
pub fn compares_with_argument(name: &str) -> bool {
    comparisons::method_comparison(name).is_some()
        || matches!(name, "strip_prefix" | "strip_suffix")
}

/// Whether a macro so named compares its first two arguments as the walker
/// reads it (`assert_eq!`, `matches!`, `assert_matches!`).
pub fn compares_macro_arguments(name: &str) -> bool {
    comparisons::value_macro_comparison(name).is_some()
        || comparisons::pattern_macro_comparison(name).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Walking each item as it is parsed gives the facts, ids included, of
    /// walking the whole parsed `syn::File`, on every fixture.
    #[test]
    fn items_walked_as_parsed_give_the_facts_of_the_whole_file() {
        let vocab = Vocabulary::default();
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let (inputs, _) = crate::run::discover::collect(std::slice::from_ref(&root), &root);
        let mut compared = 0;
        for path in inputs.iter().map(|i| &i.path) {
            let Ok(text) = std::fs::read_to_string(path) else {
                continue;
            };
            let conv = SpanConv { file: 0 };
            let Ok(file) = crate::syntax::parse::parse_file(&text) else {
                continue;
            };
            let mut walker = Walker::new(conv, &text, &text, &vocab);
            for attr in &file.attrs {
                walker.cx.ctx.cfgs.extend(Cfg::from_attr(attr));
            }
            walker.visit_file(&file);
            let mut facts = walker.finish();
            facts.first_item =
                (file.items.first()).map(|i| conv.span(syn::spanned::Spanned::span(i)).start);
            let streamed = crate::syntax::parse::parse_file_with(&text, |input| {
                extract(input, conv, &text, &text, &vocab)
            })
            .expect("parses as a whole");
            assert_eq!(
                format!("{facts:?}"),
                format!("{streamed:?}"),
                "{}",
                path.display()
            );
            compared += 1;
        }
        assert!(compared > 100, "only {compared} files compared");
    }
}
