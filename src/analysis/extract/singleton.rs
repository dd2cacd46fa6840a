//! Singletons (issue 29) in one function's body, for its summary
//! ([`FnSummary::singleton`], [`FnSummary::singleton_calls`]): the
//! function's own mechanism on a static, and its calls of the singletons
//! the vocabulary names. The crate pass learns singletons from these, and
//! callers passing their failure on ([`crate::analysis::infer`]).
//!
//! A mechanism (no list of third-party APIs; see `lints/initialized_twice`):
//! - a `compare_exchange` (`_weak`, `compare_and_swap`) on a static whose
//!   losing side returns `Err` or panics (`log::set_logger`,
//!   `tracing_core::dispatcher::set_global_default`);
//! - a preset `Err` that only the first `STATIC.call_once` replaces
//!   (`rayon_core`'s `set_global_registry`).
//!
//! [`FnSummary::singleton`]: crate::model::facts::FnSummary::singleton
//! [`FnSummary::singleton_calls`]: crate::model::facts::FnSummary::singleton_calls

use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{Expr, Item, Stmt};

use crate::model::diagnostic::Span;
use crate::model::facts::{CallUse, CallVia, Fails, SingletonCall, SingletonMechanism, UseDecl};

/// The function's own mechanism, if any.
pub(super) fn mechanism(block: &syn::Block) -> Option<SingletonMechanism> {
    (exchange(&block.stmts))
        .or_else(|| preset_err(block))
        .or_else(|| flag::flag(block))
}

mod flag;

/// A static's name, as a receiver: all capitals (`STATE`, `crate::STATE`).
fn static_of(recv: &Expr) -> Option<String> {
    match strip(recv) {
        Expr::Path(p) => {
            let name = p.path.segments.last()?.ident.to_string();
            let caps = name.len() > 1
                && (name.chars()).all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
                && name.chars().any(|c| c.is_ascii_uppercase());
            caps.then_some(name)
        }
        _ => None,
    }
}

fn strip(e: &Expr) -> &Expr {
    match e {
        Expr::Paren(p) => strip(&p.expr),
        Expr::Reference(r) => strip(&r.expr),
        Expr::Group(g) => strip(&g.expr),
        _ => e,
    }
}

/// Names a file's `use`s bring into scope that a method call keeps as the
/// traits it may reach ([`SingletonCall::traits`]), at most: past that, the
/// first in order of name (a glob `use` brings none by name).
const MAX_TRAITS: usize = 128;

const EXCHANGES: &[&str] = &[
    "compare_exchange",
    "compare_exchange_weak",
    "compare_and_swap",
];

/// A statement (or expression) that fails: it builds an `Err`, uses `?`,
/// or panics.
#[derive(Default)]
struct Failing {
    err: bool,
    panic: bool,
}

impl<'a> Visit<'a> for Failing {
    fn visit_expr_call(&mut self, c: &'a syn::ExprCall) {
        if let Expr::Path(p) = &*c.func
            && p.path.is_ident("Err")
        {
            self.err = true;
        }
        visit::visit_expr_call(self, c);
    }
    fn visit_expr_try(&mut self, t: &'a syn::ExprTry) {
        self.err = true;
        visit::visit_expr_try(self, t);
    }
    fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
        if m.method == "unwrap" || m.method == "expect" {
            self.panic = true;
        }
        visit::visit_expr_method_call(self, m);
    }
    fn visit_macro(&mut self, m: &'a syn::Macro) {
        // The macros that end the function, and the assertions that may:
        // anyhow's and eyre's `ensure!` returns an `Err`.
        match ending_macro(m) {
            Some(Fails::ReturnsErr) => self.err = true,
            Some(Fails::Panics) => self.panic = true,
            None => match m
                .path
                .segments
                .last()
                .map(|s| s.ident.to_string())
                .as_deref()
            {
                Some("assert" | "assert_eq") => self.panic = true,
                Some("ensure") => self.err = true,
                _ => {}
            },
        }
    }
    fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
    fn visit_item(&mut self, _: &'a Item) {}
}

impl Failing {
    fn of_stmts<'a>(stmts: impl IntoIterator<Item = &'a Stmt>) -> Option<Fails> {
        let mut f = Failing::default();
        stmts.into_iter().for_each(|s| f.visit_stmt(s));
        match (f.err, f.panic) {
            (true, _) => Some(Fails::ReturnsErr),
            (false, true) => Some(Fails::Panics),
            _ => None,
        }
    }
}

/// Every method call in `stmts` (not in closures or items), with the
/// statement of its block it is in: (the block's statements, index, call).
fn calls_in<'a>(stmts: &'a [Stmt], out: &mut Vec<(&'a [Stmt], usize, &'a syn::ExprMethodCall)>) {
    struct Calls<'a, 'o> {
        out: &'o mut Vec<(&'a [Stmt], usize, &'a syn::ExprMethodCall)>,
        stack: Vec<(&'a [Stmt], usize)>,
    }
    impl<'a> Visit<'a> for Calls<'a, '_> {
        fn visit_block(&mut self, b: &'a syn::Block) {
            for (i, s) in b.stmts.iter().enumerate() {
                self.stack.push((&b.stmts, i));
                self.visit_stmt(s);
                self.stack.pop();
            }
        }
        fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
            if let Some(&(stmts, i)) = self.stack.last() {
                self.out.push((stmts, i, m));
            }
            visit::visit_expr_method_call(self, m);
        }
        fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
        fn visit_item(&mut self, _: &'a Item) {}
    }
    let mut c = Calls {
        out,
        stack: Vec::new(),
    };
    for (i, s) in stmts.iter().enumerate() {
        c.stack.push((stmts, i));
        c.visit_stmt(s);
        c.stack.pop();
    }
}

/// `STATE.compare_exchange(..)` whose statement fails (the losing side), or
/// whose result, bound by a `let`, a later `if` tests and fails on.
fn exchange(stmts: &[Stmt]) -> Option<SingletonMechanism> {
    let mut calls = Vec::new();
    calls_in(stmts, &mut calls);
    for (block, i, m) in calls {
        let name = m.method.to_string();
        if !EXCHANGES.contains(&name.as_str()) {
            continue;
        }
        let Some(state) = static_of(&m.receiver) else {
            continue;
        };
        let how = format!("`{state}.{name}` with a failing losing side");
        // An `if` or a `match` on the exchange: its losing side alone.
        if let Some(losing) = flag::losing_branch(block, i, m) {
            match losing {
                Some(fails) => return Some(SingletonMechanism { fails, how, state }),
                // `let old = match S.compare_exchange(..) { Ok(s) | Err(s)
                // => s };`: the value is matched later.
                None if matches!(&block[i], Stmt::Local(_)) => {}
                None => continue,
            }
        }
        if let Some(fails) = Failing::of_stmts([&block[i]]) {
            return Some(SingletonMechanism { fails, how, state });
        }
        if let Stmt::Local(l) = &block[i]
            && let syn::Pat::Ident(p) = &l.pat
        {
            let local = p.ident.to_string();
            for later in &block[i + 1..] {
                if let Stmt::Expr(Expr::If(e), _) = later
                    && mentions(&e.cond, &local)
                    && let Some(fails) = Failing::of_stmts(&e.then_branch.stmts)
                {
                    return Some(SingletonMechanism { fails, how, state });
                }
                // `match old_state { UNINITIALIZED => { ..; Ok(()) }, _ =>
                // Err(..) }` (log 0.4.21's `set_logger_inner`): the state
                // the exchange saw, some arm failing and some not.
                if let Stmt::Expr(Expr::Match(e), _) = later
                    && mentions(&e.expr, &local)
                    && let Some(fails) = failing_arm(e)
                {
                    return Some(SingletonMechanism { fails, how, state });
                }
            }
        }
    }
    None
}

/// What the failing arms of a `match` do, when some fail and some do not.
fn failing_arm(m: &syn::ExprMatch) -> Option<Fails> {
    let arms: Vec<Option<Fails>> = (m.arms.iter())
        .map(|a| match &*a.body {
            Expr::Block(b) => Failing::of_stmts(&b.block.stmts),
            other => {
                let mut f = Failing::default();
                f.visit_expr(other);
                match (f.err, f.panic) {
                    (true, _) => Some(Fails::ReturnsErr),
                    (false, true) => Some(Fails::Panics),
                    _ => None,
                }
            }
        })
        .collect();
    if !arms.iter().any(Option::is_none) {
        return None;
    }
    let failing = arms.into_iter().flatten();
    failing.reduce(|a, b| if a == Fails::ReturnsErr { a } else { b })
}

/// Whether `e` names the identifier `name`.
fn mentions(e: &Expr, name: &str) -> bool {
    struct M<'n>(&'n str, bool);
    impl<'a> Visit<'a> for M<'_> {
        fn visit_ident(&mut self, i: &'a proc_macro2::Ident) {
            if i == self.0 {
                self.1 = true;
            }
        }
    }
    let mut m = M(name, false);
    m.visit_expr(e);
    m.1
}

/// `let mut r = Err(..); ONCE.call_once(|| r = ..); r`: only the first call
/// replaces the preset error.
fn preset_err(block: &syn::Block) -> Option<SingletonMechanism> {
    let stmts = &block.stmts;
    for (i, s) in stmts.iter().enumerate() {
        let Stmt::Local(l) = s else { continue };
        let (syn::Pat::Ident(p), Some(init)) = (&l.pat, &l.init) else {
            continue;
        };
        let Expr::Call(c) = strip(&init.expr) else {
            continue;
        };
        if !matches!(&*c.func, Expr::Path(f) if f.path.is_ident("Err")) {
            continue;
        }
        let local = p.ident.to_string();
        let once = stmts[i + 1..].iter().find_map(|s| match s {
            Stmt::Expr(Expr::MethodCall(m), _) if m.method == "call_once" => {
                let state = static_of(&m.receiver)?;
                m.args.iter().any(|a| mentions(a, &local)).then_some(state)
            }
            _ => None,
        });
        let Some(state) = once else { continue };
        let tail = match stmts.last() {
            Some(Stmt::Expr(e, None)) => Some(e),
            _ => None,
        };
        let fails = match tail.map(strip) {
            Some(Expr::Path(p)) if p.path.is_ident(&local) => Fails::ReturnsErr,
            Some(Expr::MethodCall(m))
                if (m.method == "unwrap" || m.method == "expect")
                    && mentions(&m.receiver, &local) =>
            {
                Fails::Panics
            }
            Some(e) if mentions(e, &local) => Fails::ReturnsErr,
            _ => continue,
        };
        let how = format!("a preset `Err` only the first `{state}.call_once` replaces");
        return Some(SingletonMechanism { fails, how, state });
    }
    None
}

/// The calls in `body` of the names `named` says are singletons, in order,
/// with what the body does with their failure and where they stand.
pub(super) fn calls(
    body: &syn::Block,
    self_type: Option<&str>,
    (named, once_statics): (Named<'_>, &[(String, String)]),
    span_at: &dyn Fn(proc_macro2::Span) -> Span,
) -> Vec<SingletonCall> {
    let mut w = Walk {
        named,
        once_statics,
        span_at,
        self_type,
        out: Vec::new(),
        branches: Vec::new(),
        in_loop: 0,
        uncertain: 0,
        cfgs: 0,
        regions: Vec::new(),
        exits: Vec::new(),
        locals: Vec::new(),
        once: None,
        tested: 0,
        chain_start: None,
        local_chains: Vec::new(),
    };
    w.block(body, true);
    w.out
}

/// A singleton's call by its name alone that a `use` of the file brings
/// from another crate (`use log::{set_boxed_logger, ..}; ..
/// set_boxed_logger(l)`) is that crate's, as if its path were written
/// (`log::set_boxed_logger(l)`): a dependency's singleton is matched by
/// name only when qualified ([`LearnedSingleton::called_by`]). The `use`s
/// of every module of the file count, when they agree on the crate.
///
/// [`LearnedSingleton::called_by`]: crate::analysis::infer::LearnedSingleton::called_by
pub(super) fn qualify_imported(
    functions: &mut [crate::model::facts::FnSummary],
    uses: &[UseDecl],
    returners: &[crate::model::facts::Returner],
) {
    // A chain starting at a function of the file (`base_dispatch(cfg)`):
    // the type its signature returns, when one function of the name does.
    let returned = |name: &str| -> Option<String> {
        agreed(
            (returners.iter())
                .filter(|r| r.name == name)
                .map(|r| r.ty.as_str()),
        )
    };
    let root_of = |name: &str| -> Option<String> {
        let root = agreed(
            (uses.iter())
                .filter(|u| u.alias.as_deref() == Some(name))
                .filter(|u| u.target.len() >= 2 && u.target.last().is_some_and(|t| t == name))
                .map(|u| u.target[0].as_str()),
        )?;
        let local = matches!(
            root.as_str(),
            "crate" | "self" | "super" | "std" | "core" | "alloc"
        );
        (!local).then_some(root)
    };
    // `dispatcher::set_global_default(..)` after `use
    // tracing_core::dispatcher`: the crate the first segment is brought
    // from (`crate` for one of the file's own crate).
    let brought = |first: &str| -> Option<String> {
        agreed(
            (uses.iter())
                .filter(|u| u.alias.as_deref() == Some(first) && u.target.len() >= 2)
                .map(|u| match u.target[0].as_str() {
                    "crate" | "self" | "super" => "crate",
                    root => root,
                }),
        )
    };
    // The traits in scope by name, for method calls (at most a few).
    let traits: Vec<String> = {
        let mut t: Vec<String> = (uses.iter())
            .filter(|u| {
                !matches!(
                    u.target.first().map(String::as_str),
                    Some("std" | "core" | "alloc")
                )
            })
            // `use tracing_subscriber::util::SubscriberInitExt as _;`
            .filter_map(|u| match u.alias.as_deref() {
                Some("_") => u.target.last().cloned(),
                alias => alias.map(str::to_string),
            })
            .filter(|a| a.starts_with(|c: char| c.is_ascii_uppercase()))
            .collect();
        t.sort_unstable();
        t.dedup();
        t.truncate(MAX_TRAITS);
        t
    };
    let calls = (functions.iter_mut()).flat_map(|f| f.singleton_calls.iter_mut());
    for call in calls {
        if call.via == CallVia::Method {
            call.traits = traits.clone();
        }
        if call.via == CallVia::Free
            && call.qualified
            && let Some(root) = call.path_root.as_deref().and_then(brought)
        {
            call.path_root = Some(root);
        } else if call.via == CallVia::Free && !call.qualified {
            if let Some(root) = root_of(&call.callee) {
                call.qualified = true;
                call.path_root = Some(root);
            }
        } else if let Some(name) = call.chain_fn.take() {
            call.chain_root = root_of(&name);
            if call.chain_root.is_none() && call.receiver_type.is_none() {
                call.receiver_type = returned(&name);
            }
        }
    }
}

/// The one value all of `values` are, if there is any and they agree.
fn agreed<'a>(mut values: impl Iterator<Item = &'a str>) -> Option<String> {
    let first = values.next()?;
    values.all(|v| v == first).then(|| first.to_string())
}

/// Where a receiver chain starts ([`chain_start`]): the crate a path names,
/// or the name of a function named alone.
type ChainStart = (Option<String>, Option<String>);

/// The function a receiver chain starts at (`tracing_subscriber::fmt()` in
/// `tracing_subscriber::fmt().with_target(false).init()`): the crate its
/// path names, or its name when it is named alone; neither for a type's
/// function (`Builder::new()`), a local path (`crate::`, `self::`) or a
/// receiver that is no call.
fn chain_start(recv: &Expr) -> ChainStart {
    match strip_try(recv) {
        Expr::MethodCall(m) => chain_start(&m.receiver),
        Expr::Call(c) => match &*c.func {
            Expr::Path(p) if p.qself.is_none() => {
                let segs: Vec<String> = p
                    .path
                    .segments
                    .iter()
                    .map(|s| s.ident.to_string())
                    .collect();
                let lower = |s: &str| s.starts_with(|c: char| c.is_ascii_lowercase() || c == '_');
                match segs.as_slice() {
                    [name] if lower(name) => (None, Some(name.clone())),
                    [root, .., last]
                        if lower(last)
                            && lower(root)
                            && !matches!(
                                root.as_str(),
                                "crate" | "self" | "super" | "std" | "core" | "alloc"
                            )
                            && segs[..segs.len() - 1].iter().all(|s| lower(s)) =>
                    {
                        (Some(root.clone()), None)
                    }
                    _ => (None, None),
                }
            }
            _ => (None, None),
        },
        _ => (None, None),
    }
}

/// Whether a condition may test whether a global is set already: it names
/// a static (`LOGGER.get().is_none()`, `!INIT.load(..)`) or calls a
/// function whose name says so (`log::max_level()`,
/// `dispatcher::has_been_set()`, `is_initialized()`). A singleton called
/// under it is not known to fail on the second path.
fn tests_state(cond: &Expr) -> bool {
    struct T(bool);
    impl<'a> Visit<'a> for T {
        fn visit_expr_path(&mut self, p: &'a syn::ExprPath) {
            let caps = |s: &str| {
                s.len() > 1
                    && s.bytes().any(|c| c.is_ascii_uppercase())
                    && s.bytes()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
            };
            if let Some(last) = p.path.segments.last() {
                let name = last.ident.to_string();
                self.0 |= caps(&name) || state_word(&name);
            }
            visit::visit_expr_path(self, p);
        }
        fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
            self.0 |= state_word(&m.method.to_string());
            visit::visit_expr_method_call(self, m);
        }
    }
    let mut t = T(false);
    t.visit_expr(cond);
    t.0
}

/// A function name that asks for a global's state.
fn state_word(name: &str) -> bool {
    const WORDS: &[&str] = &[
        "init",
        "install",
        "logger",
        "subscriber",
        "dispatch",
        "has_been_set",
        "max_level",
        "is_set",
        "registered",
        "global",
    ];
    WORDS.iter().any(|w| name.contains(w))
}

/// The methods of std's (and once_cell's) once types whose closure runs on
/// the first call only.
const RUN_ONCE: &[&str] = &[
    "call_once",
    "call_once_force",
    "get_or_init",
    "get_or_try_init",
];

/// Whether a callee's name is a singleton's.
pub(super) type Named<'a> = &'a dyn Fn(&str) -> bool;

struct Walk<'a> {
    named: &'a dyn Fn(&str) -> bool,
    /// The file's statics of a std once type: (name, type).
    once_statics: &'a [(String, String)],
    span_at: &'a dyn Fn(proc_macro2::Span) -> Span,
    self_type: Option<&'a str>,
    out: Vec<SingletonCall>,
    branches: Vec<(u32, u32)>,
    in_loop: usize,
    uncertain: usize,
    /// How many `cfg`s the walk is under.
    cfgs: usize,
    /// The closures and `async` blocks the walk is in, innermost last
    /// ([`SingletonCall::region`]).
    regions: Vec<u32>,
    /// The `if`s so far whose branch ended the function.
    exits: Vec<u32>,
    /// Locals bound to a value of a known type (`let mut b =
    /// Builder::new()`), or to a call's result (`let r = set_logger(..)`:
    /// the call recorded at that index, passed on when `r` is returned).
    locals: Vec<(String, Option<String>, Option<usize>)>,
    /// The static whose run-once closure is being walked
    /// ([`SingletonCall::once`]).
    once: Option<String>,
    /// Inside branches of a condition that may test the global's state
    /// ([`SingletonCall::tested`]).
    tested: usize,
    /// Where the receiver chain of the method call being recorded starts
    /// ([`SingletonCall::chain_root`], [`SingletonCall::chain_fn`]).
    chain_start: Option<ChainStart>,
    /// Locals of no known type bound to such a chain (`let d =
    /// base_dispatch(cfg);`): where it starts.
    local_chains: Vec<(String, ChainStart)>,
}

fn pos_id(s: proc_macro2::Span) -> u32 {
    let at = s.start();
    (((at.line as u32) & 0x7ffff) << 12) | (at.column as u32 & 0xfff)
}

impl Walk<'_> {
    fn block(&mut self, b: &syn::Block, tail_returns: bool) {
        let n = b.stmts.len();
        let exits = self.exits.len();
        for (i, s) in b.stmts.iter().enumerate() {
            let last = i + 1 == n;
            let cfg = super::stmt_attrs(s)
                .iter()
                .any(|a| a.path().is_ident("cfg"));
            self.uncertain += cfg as usize;
            self.cfgs += cfg as usize;
            match s {
                Stmt::Local(l) => {
                    if let Some(init) = &l.init {
                        // `let _ = init();`, `let r = init();`: the binding
                        // keeps or drops an `Err`, it does not pass it on
                        // (unless `r` is returned, below).
                        let before = self.out.len();
                        self.expr(&init.expr, CallUse::Ignored);
                        // `let Some(p) = path else { init(); return Ok(None) };`:
                        // the `else` block always leaves, as an `if`'s
                        // branch that ends the function.
                        if let Some((else_token, e)) = &init.diverge {
                            let id = pos_id(else_token.span) | crate::analysis::infer::IF_BRANCH;
                            self.branch(id, 0, |w| w.expr(e, CallUse::Ignored));
                            self.exits.push(id);
                        }
                        if let Some(name) = local_name(&l.pat) {
                            let ty = self.chain_type(&init.expr);
                            let call = match strip_try(&init.expr) {
                                Expr::Call(_) | Expr::MethodCall(_) if self.out.len() > before => {
                                    Some(self.out.len() - 1)
                                }
                                _ => None,
                            };
                            let start = chain_start(&init.expr);
                            if ty.is_none() && start != (None, None) {
                                self.local_chains.push((name.clone(), start));
                            }
                            self.locals.push((name, ty, call));
                        }
                    }
                }
                Stmt::Expr(e, semi) => {
                    let u = match (semi, last && tail_returns) {
                        (None, true) => CallUse::Propagated,
                        _ => CallUse::Ignored,
                    };
                    // `let r = set_boxed_logger(..); ..; r`
                    if u == CallUse::Propagated
                        && let Expr::Path(p) = strip(e)
                        && let Some(at) = self.local(p).and_then(|l| l.2)
                    {
                        self.out[at].result = CallUse::Propagated;
                    }
                    self.expr(e, u);
                    // `if x { ..; return; }`: what follows is exclusive
                    // with that branch.
                    if let Expr::If(i) = e
                        && ends(&i.then_branch.stmts)
                    {
                        self.exits
                            .push(pos_id(i.if_token.span) | crate::analysis::infer::IF_BRANCH);
                    }
                }
                Stmt::Macro(m) => self.mac(&m.mac),
                Stmt::Item(_) => {}
            }
            self.uncertain -= cfg as usize;
            self.cfgs -= cfg as usize;
        }
        // An `if` inside a nested block ends only that block's code.
        if !tail_returns {
            self.exits.truncate(exits);
        }
    }

    fn mac(&mut self, m: &syn::Macro) {
        if let Ok(args) =
            m.parse_body_with(syn::punctuated::Punctuated::<Expr, syn::Token![,]>::parse_terminated)
        {
            for a in &args {
                self.expr(a, CallUse::Ignored);
            }
        }
    }

    fn branch(&mut self, id: u32, arm: u32, f: impl FnOnce(&mut Self)) {
        self.branches.push((id, arm));
        f(self);
        self.branches.pop();
    }

    #[allow(clippy::too_many_arguments)]
    fn site(
        &mut self,
        callee: String,
        via: CallVia,
        (receiver_type, path_type, path_root): (Option<String>, Option<String>, Option<String>),
        arity: usize,
        at: proc_macro2::Span,
        result: CallUse,
    ) {
        let once = callee == "set" && path_type.is_some() && via == CallVia::Method;
        if !once
            && (!(self.named)(&callee)
                || crate::config::SINGLETON_MECHANISMS.contains(&callee.as_str()))
        {
            return;
        }
        let qualified = path_root.is_some();
        let (chain_root, chain_fn) = match (via, &receiver_type) {
            (CallVia::Method, None) => self.chain_start.take().unwrap_or_default(),
            _ => (None, None),
        };
        self.out.push(SingletonCall {
            callee,
            via,
            receiver_type,
            path_type,
            qualified,
            path_root,
            arity,
            span: (self.span_at)(at),
            line: at.start().line as u32,
            result,
            branches: self.branches.clone(),
            in_loop: self.in_loop > 0,
            uncertain: self.uncertain > 0,
            region: (self.cfgs == 0)
                .then(|| self.regions.last().copied())
                .flatten(),
            after_exits: self.exits.clone(),
            once: self.once.clone(),
            tested: self.tested > 0,
            chain_root,
            chain_fn,
            module: Vec::new(),
            traits: Vec::new(),
        });
    }

    /// The type a receiver chain starts from: `Type::new()` (then methods),
    /// `self` (the caller's type).
    fn chain_type(&self, e: &Expr) -> Option<String> {
        match strip_try(e) {
            Expr::MethodCall(m) => self.chain_type(&m.receiver),
            Expr::Call(c) => match &*c.func {
                Expr::Path(p) if p.path.segments.len() >= 2 => {
                    let segs = &p.path.segments;
                    let ty = segs[segs.len() - 2].ident.to_string();
                    match ty.as_str() {
                        "Self" => self.self_type.map(short_type),
                        _ if ty.starts_with(|c: char| c.is_ascii_uppercase()) => Some(ty),
                        _ => None,
                    }
                }
                _ => None,
            },
            Expr::Path(p) if p.path.is_ident("self") => self.self_type.map(short_type),
            Expr::Path(p) => self.local(p).and_then(|l| l.1.clone()),
            Expr::Reference(r) => self.chain_type(&r.expr),
            _ => None,
        }
    }

    /// Where the chain a receiver starts at a local bound to one starts
    /// (`d.apply()` after `let d = base_dispatch(cfg);`).
    fn chain_local(&self, recv: &Expr) -> Option<ChainStart> {
        match strip_try(recv) {
            Expr::MethodCall(m) => self.chain_local(&m.receiver),
            Expr::Path(p) => {
                let name = p.path.get_ident()?.to_string();
                if self.locals.iter().rev().find(|l| l.0 == name)?.1.is_some() {
                    return None;
                }
                (self.local_chains.iter().rev())
                    .find(|(n, _)| *n == name)
                    .map(|(_, s)| s.clone())
            }
            _ => None,
        }
    }

    /// The local a path names, the latest binding.
    fn local(&self, p: &syn::ExprPath) -> Option<&(String, Option<String>, Option<usize>)> {
        let name = p.path.get_ident()?.to_string();
        self.locals.iter().rev().find(|l| l.0 == name)
    }

    /// Walk `e`, whose value is used as `u`.
    fn expr(&mut self, e: &Expr, u: CallUse) {
        match e {
            Expr::Call(c) => {
                for a in &c.args {
                    self.expr(a, CallUse::Ignored);
                }
                if let Expr::Path(p) = &*c.func
                    && let Some(last) = p.path.segments.last()
                {
                    let segs = &p.path.segments;
                    let ty = (segs.len() >= 2)
                        .then(|| segs[segs.len() - 2].ident.to_string())
                        .filter(|t| t.starts_with(|c: char| c.is_ascii_uppercase()));
                    let ty = match ty.as_deref() {
                        Some("Self") => self.self_type.map(short_type),
                        _ => ty,
                    };
                    let via = match ty {
                        Some(_) => CallVia::Typed,
                        None => CallVia::Free,
                    };
                    let name = last.ident.to_string();
                    let root = (segs.len() >= 2).then(|| segs[0].ident.to_string());
                    let at = self.out.len();
                    self.site(
                        name,
                        via,
                        (None, ty, root),
                        c.args.len(),
                        last.ident.span(),
                        u,
                    );
                    let relative = matches!(segs[0].ident.to_string().as_str(), "self" | "super");
                    if segs.len() >= 2
                        && !relative
                        && let Some(call) = self.out.get_mut(at)
                    {
                        call.module = (segs.iter().take(segs.len() - 1))
                            .map(|s| s.ident.to_string())
                            .filter(|s| s != "crate")
                            .collect();
                    }
                } else {
                    self.expr(&c.func, CallUse::Ignored);
                }
            }
            Expr::MethodCall(m) => {
                let name = m.method.to_string();
                // `SHARED.call_once(|| ..)`, `CELL.get_or_init(|| ..)` on a
                // static: the closure runs on the first call, where it
                // stands.
                let once = (RUN_ONCE.contains(&name.as_str()))
                    .then(|| static_of(&m.receiver))
                    .flatten();
                for a in &m.args {
                    match (&once, strip(a)) {
                        (Some(state), Expr::Closure(c)) if self.uncertain == 0 => {
                            let saved = self.once.replace(state.clone());
                            self.expr(&c.body, CallUse::Ignored);
                            self.once = saved;
                        }
                        _ => self.expr(a, CallUse::Ignored),
                    }
                }
                // What the receiver's result becomes through this call.
                let inner = match name.as_str() {
                    "unwrap" | "expect" => CallUse::Unwrapped,
                    "map" | "map_err" | "and_then" | "context" | "with_context" | "wrap_err"
                    | "into" | "inspect_err" => u,
                    _ => CallUse::Ignored,
                };
                self.expr(&m.receiver, inner);
                let at = m.method.span();
                // `HOOK.set(..)` on a static `OnceLock`: its own singleton.
                let once = (name == "set" && m.args.len() == 1)
                    .then(|| static_of(&m.receiver))
                    .flatten()
                    .and_then(|s| self.once_statics.iter().find(|(n, _)| *n == s));
                let how = match once {
                    Some((name, ty)) => (Some(ty.clone()), Some(name.clone()), None),
                    None => (self.chain_type(&m.receiver), None, None),
                };
                self.chain_start = Some(match self.chain_local(&m.receiver) {
                    Some(start) => start,
                    None => chain_start(&m.receiver),
                });
                self.site(name, CallVia::Method, how, m.args.len(), at, u);
                self.chain_start = None;
            }
            Expr::Try(t) => self.expr(&t.expr, CallUse::Propagated),
            // What a `return` (or a `break`'s value) calls runs once, even
            // in a loop: the loop ends there.
            Expr::Return(r) => {
                if let Some(e) = &r.expr {
                    let in_loop = std::mem::take(&mut self.in_loop);
                    self.expr(e, CallUse::Propagated);
                    self.in_loop = in_loop;
                }
            }
            Expr::Break(b) => {
                if let Some(e) = &b.expr {
                    let in_loop = std::mem::take(&mut self.in_loop);
                    self.expr(e, CallUse::Ignored);
                    self.in_loop = in_loop;
                }
            }
            Expr::If(i) => {
                let id = pos_id(i.if_token.span) | crate::analysis::infer::IF_BRANCH;
                match &*i.cond {
                    // `if let Err(e) = run() { eprintln!(..); exit(1) }`:
                    // the failure shows, as a `?` would pass it on.
                    Expr::Let(l) if is_err_pattern(&l.pat) && leaves(&i.then_branch.stmts) => {
                        self.expr(&l.expr, CallUse::Propagated)
                    }
                    Expr::Let(l) => self.expr(&l.expr, CallUse::Ignored),
                    cond => self.expr(cond, CallUse::Ignored),
                }
                let tail = matches!(u, CallUse::Propagated);
                let tested = usize::from(tests_state(&i.cond));
                self.tested += tested;
                self.branch(id, 0, |s| s.block(&i.then_branch, tail));
                if let Some((_, e)) = &i.else_branch {
                    self.branch(id, 1, |s| s.expr(e, u));
                }
                self.tested -= tested;
            }
            Expr::Match(m) => {
                let id = pos_id(m.match_token.span);
                self.expr(&m.expr, CallUse::Ignored);
                let tested = usize::from(tests_state(&m.expr));
                self.tested += tested;
                for (k, arm) in m.arms.iter().enumerate() {
                    self.branch(id, k as u32, |s| s.expr(&arm.body, u));
                }
                self.tested -= tested;
            }
            Expr::ForLoop(f) => {
                self.expr(&f.expr, CallUse::Ignored);
                self.in_loop += 1;
                self.block(&f.body, false);
                self.in_loop -= 1;
            }
            Expr::While(w) => {
                self.expr(&w.cond, CallUse::Ignored);
                self.in_loop += 1;
                self.block(&w.body, false);
                self.in_loop -= 1;
            }
            Expr::Loop(l) => {
                self.in_loop += 1;
                self.block(&l.body, false);
                self.in_loop -= 1;
            }
            Expr::Closure(c) => {
                self.uncertain += 1;
                self.regions.push(pos_id(c.body.span()));
                self.expr(&c.body, CallUse::Ignored);
                self.regions.pop();
                self.uncertain -= 1;
            }
            Expr::Async(a) => {
                self.uncertain += 1;
                self.regions.push(pos_id(a.async_token.span));
                let (exits, locals) = (self.exits.len(), self.locals.len());
                // Its value is what it gives whoever awaits it
                // (`block_on(async { init()?; run().await })`).
                self.block(&a.block, true);
                self.exits.truncate(exits);
                self.locals.truncate(locals);
                self.regions.pop();
                self.uncertain -= 1;
            }
            Expr::Block(b) => self.block(&b.block, matches!(u, CallUse::Propagated)),
            Expr::Unsafe(b) => self.block(&b.block, matches!(u, CallUse::Propagated)),
            Expr::Await(a) => self.expr(&a.base, u),
            Expr::Paren(p) => self.expr(&p.expr, u),
            Expr::Group(g) => self.expr(&g.expr, u),
            Expr::Reference(r) => self.expr(&r.expr, CallUse::Ignored),
            Expr::Macro(m) => self.mac(&m.mac),
            Expr::Binary(b) => {
                self.expr(&b.left, CallUse::Ignored);
                let id = pos_id(b.op.span());
                match b.op {
                    syn::BinOp::And(_) | syn::BinOp::Or(_) => {
                        self.branch(id, 0, |s| s.expr(&b.right, CallUse::Ignored))
                    }
                    _ => self.expr(&b.right, CallUse::Ignored),
                }
            }
            Expr::Assign(a) => self.expr(&a.right, CallUse::Ignored),
            Expr::Let(l) => self.expr(&l.expr, CallUse::Ignored),
            Expr::Field(f) => self.expr(&f.base, CallUse::Ignored),
            Expr::Tuple(t) => t.elems.iter().for_each(|e| self.expr(e, CallUse::Ignored)),
            Expr::Array(t) => t.elems.iter().for_each(|e| self.expr(e, CallUse::Ignored)),
            Expr::Struct(s) => (s.fields.iter()).for_each(|f| self.expr(&f.expr, CallUse::Ignored)),
            Expr::Unary(x) => self.expr(&x.expr, CallUse::Ignored),
            Expr::Cast(x) => self.expr(&x.expr, CallUse::Ignored),
            Expr::Index(x) => {
                self.expr(&x.expr, CallUse::Ignored);
                self.expr(&x.index, CallUse::Ignored);
            }
            _ => {}
        }
    }
}

/// The statics of `text` declared of a std once type
/// ([`crate::config::ONCE_TYPES`]): `static HOOK: OnceLock<Hook> = ..`,
/// each with its type's name. Read from the text: a file naming no such
/// type has none.
pub(super) fn once_statics(text: &str) -> Vec<(String, String)> {
    let b = text.as_bytes();
    let types = crate::config::ONCE_TYPES;
    // One search for both types' common stem (every file is searched).
    let named = memchr::memmem::find_iter(b, b"Once")
        .any(|at| (types.iter()).any(|t| b[at..].starts_with(t.as_bytes())));
    if !named {
        return Vec::new();
    }
    let mut out = Vec::new();
    for at in memchr::memmem::find_iter(b, b"static ") {
        if at > 0 && (b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_') {
            continue;
        }
        let rest = text[at + 7..].trim_start();
        let rest = rest.strip_prefix("mut ").unwrap_or(rest).trim_start();
        let name: String = (rest.chars())
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let Some(ty) = rest[name.len()..].trim_start().strip_prefix(':') else {
            continue;
        };
        let ty = &ty[..ty.find(['=', ';']).unwrap_or(ty.len())];
        let base = ty.split('<').next().unwrap_or(ty);
        let base = base.rsplit("::").next().unwrap_or(base).trim();
        if !name.is_empty() && types.contains(&base) {
            out.push((name, base.to_string()));
        }
    }
    out
}

/// Whether `text` sets a static of a std once type (`static HOOK:
/// OnceLock<..>`, then `HOOK.set(..)`): the prefilter parses such a file
/// whole, bodies and all (no vocabulary word need stand in the body that
/// sets it).
pub fn sets_once_static(text: &str) -> bool {
    !set_once_statics(text).is_empty()
}

/// The statics of a std once type that `text` sets ([`sets_once_static`]).
pub fn set_once_statics(text: &str) -> Vec<String> {
    (once_statics(text).into_iter())
        .map(|(name, _)| name)
        .filter(|name| sets_static(text, name))
        .collect()
}

/// Whether `text` calls a singleton's mechanism on a static, as
/// [`mechanism`] reads one: an exchange or `call_once` whose receiver is
/// written in capitals (`STATE.compare_exchange(..)`,
/// `crate::INIT.call_once(..)`). An atomic's exchange on a field or a
/// local (most of them) is none.
pub fn static_mechanism(text: &str) -> bool {
    // Two searches cover the mechanisms' names (every file is searched:
    // one `memmem` each is faster than one automaton for all).
    static STEMS: std::sync::OnceLock<[memchr::memmem::Finder<'static>; 2]> =
        std::sync::OnceLock::new();
    let stems = STEMS.get_or_init(|| {
        [
            memchr::memmem::Finder::new(b"compare_"),
            memchr::memmem::Finder::new(b"call_once"),
        ]
    });
    let b = text.as_bytes();
    let mechanisms = crate::config::SINGLETON_MECHANISMS;
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let space_before = |mut at: usize| {
        while at > 0 && b[at - 1].is_ascii_whitespace() {
            at -= 1;
        }
        at
    };
    let at = |start: usize| {
        let end = start + b[start..].iter().take_while(|&&c| word(c)).count();
        if !mechanisms.contains(&&text[start..end]) {
            return false;
        }
        let dot = space_before(start);
        if dot == 0 || b[dot - 1] != b'.' {
            return false;
        }
        let end = space_before(dot - 1);
        let mut start = end;
        while start > 0 && word(b[start - 1]) {
            start -= 1;
        }
        let name = &b[start..end];
        name.len() > 1
            && name.iter().any(|c| c.is_ascii_uppercase())
            && (name.iter()).all(|&c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
    };
    (stems.iter()).any(|stem| {
        (stem.find_iter(b)).any(|start| (start == 0 || !word(b[start - 1])) && at(start))
    }) || static_flag(text)
}

/// The calls a flag or a cell on a static is tested and set with
/// ([`flag::flag`]): the survey's recorded calls are asked for these
/// before [`static_mechanism`] reads the text.
pub const FLAG_CALLS: &[&str] = &["store", "swap", "lock"];

/// Whether `text` tests and sets a flag or a cell on a static, as
/// [`flag::flag`] reads one: `INIT.swap(true, ..)`, `INIT.store(true, ..)`
/// with `INIT.load(..)`, or `CONTEXT.lock()` in a text that writes `=
/// Some(` (an `RwLock`'s `write()` is not looked for: nearly every file
/// calls a `write`). A static's name is written in capitals.
fn static_flag(text: &str) -> bool {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    // The static before the `.` at `dot`, written in capitals.
    let receiver = |dot: usize| -> Option<&str> {
        let mut start = dot;
        while start > 0 && word(b[start - 1]) {
            start -= 1;
        }
        let name = &text[start..dot];
        (name.len() > 1
            && name.bytes().any(|c| c.is_ascii_uppercase())
            && (name.bytes()).all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_'))
        .then_some(name)
    };
    let some_written = std::cell::OnceCell::new();
    let found = |stem: &str| {
        memchr::memmem::find_iter(b, stem.as_bytes()).any(|dot| {
            let Some(name) = receiver(dot) else {
                return false;
            };
            // A flag is set to a literal (`INIT.store(true, ..)`), not to a
            // value a cache keeps (`FN.store(ptr, ..)`).
            let literal = || {
                let arg = text[dot + stem.len()..].trim_start();
                arg.starts_with("true") || arg.starts_with("false")
            };
            match stem {
                ".swap(" => literal(),
                ".store(" => {
                    literal()
                        && memchr::memmem::find(b, format!("{name}.load(").as_bytes()).is_some()
                }
                _ => *some_written.get_or_init(|| memchr::memmem::find(b, b"= Some(").is_some()),
            }
        })
    };
    [".swap(", ".store(", ".lock()"].iter().any(|s| found(s))
}

/// Whether `text` calls `name.set(..)`.
pub fn sets_static(text: &str, name: &str) -> bool {
    let b = text.as_bytes();
    memchr::memmem::find_iter(b, name.as_bytes()).any(|at| {
        let end = at + name.len();
        let whole = (at == 0 || !(b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_'))
            && b.get(end)
                .is_none_or(|c| !(c.is_ascii_alphanumeric() || *c == b'_'));
        whole && text[end..].trim_start().starts_with(".set(")
    })
}

/// `x`, `mut x`.
fn local_name(p: &syn::Pat) -> Option<String> {
    match p {
        syn::Pat::Ident(i) if i.subpat.is_none() => Some(i.ident.to_string()),
        syn::Pat::Type(t) => local_name(&t.pat),
        _ => None,
    }
}

/// The last segment of a type as written, without generics: `Builder`.
fn short_type(t: &str) -> String {
    let t = t.split('<').next().unwrap_or(t).trim();
    t.rsplit("::").next().unwrap_or(t).trim().to_string()
}

fn strip_try(e: &Expr) -> &Expr {
    match e {
        Expr::Try(t) => strip_try(&t.expr),
        Expr::Await(a) => strip_try(&a.base),
        Expr::Paren(p) => strip_try(&p.expr),
        _ => e,
    }
}

/// Whether a block ends the function (or the iteration): its last
/// statement returns, panics, breaks or continues.
fn ends(stmts: &[Stmt]) -> bool {
    match stmts.last() {
        Some(Stmt::Expr(Expr::Return(_) | Expr::Break(_) | Expr::Continue(_), _)) => true,
        Some(Stmt::Macro(m)) => ending_macro(&m.mac).is_some(),
        Some(Stmt::Expr(Expr::Macro(m), _)) => ending_macro(&m.mac).is_some(),
        _ => false,
    }
}

/// `Err(..)` as a pattern.
fn is_err_pattern(p: &syn::Pat) -> bool {
    matches!(p, syn::Pat::TupleStruct(t) if t.path.segments.last().is_some_and(|s| s.ident == "Err"))
}

/// A block that ends the function ([`ends`]) or the process
/// (`std::process::exit(1)`, `process::abort()`).
fn leaves(stmts: &[Stmt]) -> bool {
    let exits = |e: &Expr| match e {
        Expr::Call(c) => matches!(&*c.func, Expr::Path(p)
            if p.path.segments.last().is_some_and(|s| s.ident == "exit" || s.ident == "abort")),
        _ => false,
    };
    ends(stmts) || matches!(stmts.last(), Some(Stmt::Expr(e, _)) if exits(e))
}

/// A macro that always ends the function, and how: `bail!` returns an
/// `Err`, `panic!`, `unreachable!`, `unimplemented!` and `todo!` panic.
fn ending_macro(m: &syn::Macro) -> Option<Fails> {
    let name = m.path.segments.last()?.ident.to_string();
    match name.as_str() {
        "bail" => Some(Fails::ReturnsErr),
        "panic" | "unreachable" | "unimplemented" | "todo" => Some(Fails::Panics),
        _ => None,
    }
}
