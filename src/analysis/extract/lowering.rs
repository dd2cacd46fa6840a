//! Lowering contexts: the backend each is given and the platforms it is
//! lowered for, within one function.

use super::value_sets::strip_borrows;
use super::*;
use crate::model::facts::{ContextFn, Site, ValueCall};

/// A lowering context starts from a lowering call with arguments (its
/// platforms), the field `platforms`, a backend setter (`with_backend`) or
/// a backend request (`get_backend("cpu")`); a context with a backend and
/// no platforms is dropped, but looking for both keeps the fast path right
/// if that changes.
pub(super) const COLLECTOR: Collector = Collector {
    name: "lowering contexts",
    starts: &[
        Start {
            names: Names::LoweringCalls,
            at: NameUse::CalleeWithArguments,
            alone: true,
        },
        Start {
            names: Names::PlatformsField,
            at: NameUse::Anywhere,
            alone: true,
        },
        Start {
            names: Names::BackendSetters,
            at: NameUse::Callee,
            alone: true,
        },
        Start {
            names: Names::BackendRequests,
            at: NameUse::Callee,
            alone: true,
        },
    ],
    reads: &[],
};

/// The lowering collector's state.
#[derive(Default)]
pub(super) struct Lowering {
    /// One collector per function being walked (innermost last).
    stack: Vec<LoweringCollector>,
    /// The platform list being read is an argument of a lowering call.
    sure_lowering: bool,
}

impl Lowering {
    /// A call by a path: a lowering call (`lower(&ctx, &["gpu"])`).
    pub(super) fn call(&mut self, cx: &mut Cx<'_>, name: &str, args: &[&Expr]) {
        if cx.lowering_names().has(Names::LoweringCalls, name) {
            self.lowering_call(cx, None, args);
        }
    }

    /// A method call: a backend setter (`ctx.with_backend(..)`), a backend
    /// request (`ctx.get_backend()`) or a lowering call. Not a method
    /// comparing its receiver with its argument (`eq`, `contains`): that is
    /// a comparison's.
    pub(super) fn method_call(
        &mut self,
        cx: &mut Cx<'_>,
        m: &syn::ExprMethodCall,
        name: &str,
        args: &[&Expr],
    ) {
        if args.len() == 1 && method_comparison(name).is_some() {
            return;
        }
        if args.len() == 1 && cx.lowering_names().has(Names::BackendSetters, name) {
            // `let ctx = base.with_backend(..)`: a `with_*` setter hands back
            // another context, `ctx`; the others set their receiver's.
            let key = match &cx.frame.let_name {
                Some(let_name)
                    if name.starts_with("with")
                        && cx.frame.let_init == Some(cx.start_of(m.method.span())) =>
                {
                    ContextKey::Named(let_name.clone())
                }
                _ => cx.context_key(&m.receiver),
            };
            self.backend_site(cx, key, args[0]);
        } else if args.is_empty() && cx.lowering_names().has(Names::BackendRequests, name) {
            let key = cx.context_key(&m.receiver);
            let span = cx.span(m);
            if let Some(l) = self.here() {
                l.get(key).backend_reads.push(span);
            }
        } else if cx.lowering_names().has(Names::LoweringCalls, name) {
            self.lowering_call(cx, Some(&m.receiver), args)
        }
    }

    /// `ctx.platforms = vec!["gpu"];`, `ctx.backend = Some(get_backend("cpu")?);`.
    pub(super) fn field_assign(&mut self, cx: &mut Cx<'_>, a: &syn::ExprAssign) {
        if let Expr::Field(f) = &*a.left {
            let key = cx.context_key(&f.base);
            match field_name(&a.left).as_deref() {
                Some("platforms") => self.platforms_site(cx, key, &a.right),
                Some("backend") => self.backend_site(cx, key, &a.right),
                _ => {}
            }
        }
    }

    /// `for p in ["gpu", "cpu"] { .. }`, walked, with its literal list:
    /// a context given a backend outside the loop and lowered in it for
    /// each platform ([`Lowering::loop_lowering`]).
    pub(super) fn for_loop(
        &mut self,
        cx: &mut Cx<'_>,
        f: &syn::ExprForLoop,
        list: Vec<(StrExpr, proc_macro2::Span)>,
        span: Span,
    ) {
        if list.len() < 2 {
            return;
        }
        let mut pat_names = Vec::new();
        pat_idents(&f.pat, &mut pat_names);
        let platforms = list.iter().map(|(p, _)| p.clone()).collect();
        if self.loop_lowering(cx, &f.body, &pat_names, platforms, span) {
            // Only now are these literals known to be lowering platforms.
            let spans = (list.into_iter())
                .map(|(p, at)| (p, cx.span_at(at)))
                .collect();
            cx.facts.lowering_platforms.push((true, spans));
        }
    }

    /// A struct literal: a context given its backend or its platforms in
    /// place (`Ctx { backend: get_backend("cpu")?, platforms: vec!["gpu"] }`).
    pub(super) fn struct_literal(&mut self, cx: &mut Cx<'_>, s: &syn::ExprStruct) {
        let key = match &cx.frame.let_name {
            Some(n) => ContextKey::Named(n.clone()),
            None => ContextKey::At(struct_key(cx.lines(), s)),
        };
        for field in &s.fields {
            if let syn::Member::Named(n) = &field.member {
                if n == "backend" {
                    self.backend_site(cx, key.clone(), &field.expr);
                } else if n == "platforms" {
                    self.platforms_site(cx, key.clone(), &field.expr);
                }
            }
        }
    }

    /// A function's body is walked from here: the contexts it speaks of
    /// are its own.
    pub(super) fn enter_fn(&mut self) {
        self.stack.push(LoweringCollector::default());
    }

    /// The function's body is walked: each of its contexts given a backend
    /// and platforms is a fact.
    pub(super) fn leave_fn(&mut self, cx: &mut Cx<'_>) {
        let collector = self.stack.pop().expect("entered before");
        for (_, ctx) in collector.contexts {
            let has_backend = !ctx.backends.is_empty()
                || !ctx.backend_reads.is_empty()
                || !ctx.made_by.is_empty();
            let has_platforms = !ctx.platforms.is_empty() || !ctx.loop_platforms.is_empty();
            if has_backend && has_platforms {
                cx.facts.lowering.push(ctx);
            }
        }
    }

    /// A literal platform list, whose literals are also remembered for the
    /// spelling check of lowering platforms.
    pub(super) fn platform_list(&mut self, cx: &mut Cx<'_>, e: &Expr) -> Option<Vec<StrExpr>> {
        let spans = cx.literal_list(e)?;
        let out = spans.iter().map(|(p, _)| p.clone()).collect();
        cx.facts
            .lowering_platforms
            .push((self.sure_lowering, spans));
        Some(out)
    }
}

impl<'t> Cx<'t> {
    /// The list a `let` binds when it names a known platform (`let targets
    /// = ["gpu"];`): a `vec![..]`'s tokens are looked at before they are
    /// parsed, as most `let`s of lists hold other strings.
    pub(super) fn held_list(&self, init: &Expr) -> Option<Vec<(StrExpr, Span)>> {
        use crate::config::platform::{LiteralKind, classify_literal};
        let known = |s: &str| classify_literal(self.vocab, s) != LiteralKind::Unknown;
        if let Expr::Macro(m) = strip_borrows(init) {
            let literal = |t: proc_macro2::TokenTree| match t {
                proc_macro2::TokenTree::Literal(l) => {
                    let text = l.to_string();
                    text.strip_prefix('"')
                        .and_then(|t| t.strip_suffix('"'))
                        .is_some_and(known)
                }
                _ => false,
            };
            if !m.mac.tokens.clone().into_iter().any(literal) {
                return None;
            }
        }
        let list = self.literal_list(init)?;
        let names_one = (list.iter()).any(|(p, _)| matches!(p, StrExpr::Lit(s) if known(s)));
        names_one.then_some(list)
    }

    /// A literal platform list written here, or held by a local
    /// (`let targets = ["gpu"];`), with the span of each name. `&[p]` with
    /// a local `p` is not a literal list.
    fn literal_list(&self, e: &Expr) -> Option<Vec<(StrExpr, Span)>> {
        if let Expr::Path(p) = strip_borrows(e)
            && let Some(ident) = p.path.get_ident()
        {
            return self.lookup(&ident.to_string())?.platforms.clone();
        }
        let list = platform_list(e, self.scope)?;
        let local = |p: &StrExpr| matches!(p, StrExpr::Path { segments, .. } if segments.len() == 1 && self.lookup(&segments[0]).is_some());
        if list.iter().any(|(p, _)| local(p)) {
            return None;
        }
        Some(
            list.into_iter()
                .map(|(p, at)| (p, self.span_at(at)))
                .collect(),
        )
    }

    /// Which context an expression names: a local (`ctx`, `self.ctx`), the
    /// `let` being initialised, or a context literal written in place.
    fn context_key(&self, e: &Expr) -> ContextKey {
        let e = peel(e);
        match e {
            Expr::Path(_) | Expr::Field(_) => ContextKey::Named(self.compact_text(e)),
            Expr::MethodCall(m) => self.context_key(&m.receiver),
            Expr::Struct(s) if self.frame.let_name.is_none() => {
                ContextKey::At(struct_key(self.lines(), s))
            }
            _ => match &self.frame.let_name {
                Some(name) => ContextKey::Named(name.clone()),
                None => ContextKey::At(self.span(e).start),
            },
        }
    }
}

impl Lowering {
    /// `let ctx = ..` or `ctx = ..` again: a new context from here on, unless
    /// built from the old one (`let ctx = ctx.with_backend(..)`). Returns
    /// whether `name` now names a new context.
    pub(super) fn retire_context(&mut self, cx: &mut Cx<'_>, name: &str, value: &Expr) -> bool {
        let known = self
            .stack
            .last()
            .is_some_and(|c| c.contexts.iter().any(|(k, _)| k.is(name)));
        // Nothing to retire (the common case): no need to look at the value.
        if !known {
            return true;
        }
        if cx.context_key(value).is(name) {
            return false;
        }
        let retired = ContextKey::Retired {
            name: name.to_string(),
            id: cx.id(),
        };
        if let Some(collector) = self.stack.last_mut()
            && let Some(entry) = collector.contexts.iter_mut().find(|(k, _)| k.is(name))
        {
            entry.0 = retired;
        }
        true
    }

    /// The tail of a function's body: which context it returns, if the
    /// function gave one a backend (looked at only then).
    pub(super) fn tail_context(&mut self, cx: &mut Cx<'_>, tail: &Expr) {
        let gave_backend = (self.stack.last())
            .is_some_and(|c| c.contexts.iter().any(|(_, x)| !x.backends.is_empty()));
        if gave_backend {
            let key = cx.context_key(tail);
            if let Some(c) = self.stack.last_mut() {
                c.returned = Some(key);
            }
        }
    }

    /// Record the function just walked (`call`) when it returns a context
    /// it gave a backend and did not lower.
    pub(super) fn context_fn(&mut self, cx: &mut Cx<'_>, call: &ValueCall) {
        let Some(key) = self.stack.last_mut().and_then(|c| c.returned.take()) else {
            return;
        };
        let Some((_, ctx)) =
            (self.stack.last()).and_then(|c| c.contexts.iter().find(|(k, _)| *k == key))
        else {
            return;
        };
        if ctx.backends.is_empty() || !ctx.platforms.is_empty() {
            return;
        }
        let backends = ctx.backends.clone();
        cx.facts.context_fns.push(ContextFn {
            call: call.clone(),
            backends,
        });
    }

    pub(super) fn here(&mut self) -> Option<&mut LoweringCollector> {
        self.stack.last_mut()
    }

    fn backend_site(&mut self, cx: &mut Cx<'_>, key: ContextKey, arg: &Expr) {
        let Some((platform, call, arg)) = backend_request(arg, cx.scope, |n| {
            cx.lowering_names().has(Names::BackendRequests, n)
        }) else {
            return;
        };
        let span = cx.span(call);
        let literal =
            matches!(arg, Expr::Lit(l) if matches!(l.lit, syn::Lit::Str(_))).then(|| cx.span(arg));
        let branches = cx.ctx.branches.clone();
        if let Some(l) = self.here() {
            l.get(key).backends.push(Site {
                value: BackendRequest { platform, literal },
                span,
                branches,
            });
        }
    }

    fn platforms_site(&mut self, cx: &mut Cx<'_>, key: ContextKey, list: &Expr) {
        let Some(platforms) = self.platform_list(cx, list) else {
            return;
        };
        let span = cx.span(list);
        let branches = cx.ctx.branches.clone();
        if let Some(l) = self.here() {
            l.get(key).platforms.push(Site {
                value: platforms,
                span,
                branches,
            });
        }
    }

    /// `lower(&ctx, &["gpu"])`, `ctx.lower_for(["gpu"])`. Only for callees
    /// that are lowering calls (`lowering.calls`).
    fn lowering_call(&mut self, cx: &mut Cx<'_>, receiver: Option<&Expr>, args: &[&Expr]) {
        let list_at = args.iter().position(|a| cx.literal_list(a).is_some());
        let Some(list_at) = list_at else { return };
        let ctx = match receiver {
            Some(r) => Some(r),
            None => args
                .iter()
                .enumerate()
                .find(|(i, _)| *i != list_at)
                .map(|(_, a)| *a),
        };
        let Some(ctx) = ctx else { return };
        let key = cx.context_key(ctx);
        // `host_context().lower_for(..)`, or `ctx` from `let ctx = host_context();`.
        // A context reached through fields is not followed.
        if let Some(call) = cx
            .value_call(ctx)
            .filter(|c| c.fields.is_empty() && !c.opaque)
        {
            let span = cx.span(ctx);
            let branches = cx.ctx.branches.clone();
            if let Some(l) = self.here() {
                l.get(key.clone()).made_by.push(Site {
                    value: call,
                    span,
                    branches,
                });
            }
        }
        self.sure_lowering = true;
        self.platforms_site(cx, key, args[list_at]);
        self.sure_lowering = false;
    }

    /// A `for` loop over several literal platforms whose body lowers a context
    /// that was given a backend outside the loop.
    fn loop_lowering(
        &mut self,
        cx: &mut Cx<'_>,
        body: &syn::Block,
        loop_vars: &[String],
        list: Vec<StrExpr>,
        span: Span,
    ) -> bool {
        struct Finder<'a> {
            lines: &'a LineTable<'a>,
            vars: &'a [String],
            calls: Asks<'a>,
            contexts: Vec<Expr>,
            /// Context literals built in the loop: (key the walker gave them).
            literals: Vec<ContextKey>,
            let_name: Option<String>,
        }
        impl<'ast> Visit<'ast> for Finder<'_> {
            fn visit_local(&mut self, l: &'ast syn::Local) {
                let name = let_name(&l.pat);
                if let Some(init) = &l.init
                    && matches!(&*init.expr, Expr::Struct(_))
                {
                    self.let_name = name;
                }
                visit::visit_local(self, l);
                self.let_name = None;
            }
            fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
                // `ctx.platforms = vec![p];`
                if let Expr::Field(f) = &*a.left
                    && field_name(&a.left).as_deref() == Some("platforms")
                    && mentions(&a.right, self.vars)
                {
                    self.contexts.push((*f.base).clone());
                }
                visit::visit_expr_assign(self, a);
            }
            fn visit_expr_struct(&mut self, s: &'ast syn::ExprStruct) {
                let loop_platforms = s.fields.iter().any(|f| {
                    matches!(&f.member, syn::Member::Named(n) if n == "platforms")
                        && mentions(&f.expr, self.vars)
                });
                if loop_platforms {
                    if let Some(rest) = &s.rest {
                        // `Ctx { platforms: vec![p], ..base.clone() }`: base's backend.
                        self.contexts.push((**rest).clone());
                    }
                    self.literals.push(match self.let_name.take() {
                        Some(n) => ContextKey::Named(n),
                        None => ContextKey::At(struct_key(self.lines, s)),
                    });
                }
                self.let_name = None;
                visit::visit_expr_struct(self, s);
            }
            fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
                if path_last(&c.func).is_some_and(|n| self.calls.has(Names::LoweringCalls, &n)) {
                    let uses_var = c.args.iter().any(|a| mentions(a, self.vars));
                    if uses_var {
                        self.contexts.extend(
                            c.args
                                .iter()
                                .filter(|a| !mentions(a, self.vars))
                                .take(1)
                                .cloned(),
                        );
                    }
                }
                visit::visit_expr_call(self, c);
            }
            fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
                if self.calls.has(Names::LoweringCalls, &m.method.to_string())
                    && m.args.iter().any(|a| mentions(a, self.vars))
                {
                    self.contexts.push((*m.receiver).clone());
                }
                visit::visit_expr_method_call(self, m);
            }
        }
        let mut finder = Finder {
            lines: cx.lines(),
            vars: loop_vars,
            calls: cx.lowering_names(),
            contexts: Vec::new(),
            literals: Vec::new(),
            let_name: None,
        };
        finder.visit_block(body);
        let keys: Vec<ContextKey> = finder
            .contexts
            .iter()
            .map(|c| cx.context_key(c))
            .chain(finder.literals)
            .collect();
        let lowers = !keys.is_empty();
        let branches = cx.ctx.branches.clone();
        for key in keys {
            if let Some(l) = self.here() {
                l.get(key).loop_platforms.push(Site {
                    value: list.clone(),
                    span,
                    branches: branches.clone(),
                });
            }
        }
        lowers
    }
}

impl LoweringCollector {
    pub(super) fn get(&mut self, key: ContextKey) -> &mut LoweringContext {
        let i = match self.contexts.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                self.contexts.push((key, LoweringContext::default()));
                self.contexts.len() - 1
            }
        };
        &mut self.contexts[i].1
    }
}

/// The lowering contexts of one function being walked.
#[derive(Default)]
pub(super) struct LoweringCollector {
    contexts: Vec<(ContextKey, LoweringContext)>,
    /// The context the function returns, when it has given one a backend.
    returned: Option<ContextKey>,
}

/// Which lowering context code speaks of, within one function. Never leaves
/// the walk: the facts hold each function's contexts, not their keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum ContextKey {
    /// A local or a field, as written (`ctx`, `self.ctx`), or the `let`
    /// being initialised.
    Named(String),
    /// A context written in place (a struct literal, a call), by where it
    /// starts: no name to know it by.
    At(usize),
    /// What `name` named before it was bound to another context (`let ctx =
    /// ..` again), by the id given then: no later code names it.
    Retired { name: String, id: u32 },
}

impl ContextKey {
    /// The context the local or field `name` names now.
    fn is(&self, name: &str) -> bool {
        matches!(self, ContextKey::Named(n) if n == name)
    }
}

/// `true` when an expression mentions one of the names.
pub(super) fn mentions(e: &Expr, names: &[String]) -> bool {
    struct M<'a> {
        names: &'a [String],
        found: bool,
    }
    impl<'ast> Visit<'ast> for M<'_> {
        fn visit_path(&mut self, p: &'ast syn::Path) {
            if let Some(i) = p.get_ident()
                && self.names.iter().any(|n| i == n)
            {
                self.found = true;
            }
            visit::visit_path(self, p);
        }
        fn visit_macro(&mut self, mac: &'ast syn::Macro) {
            // `vec![p]`: look at the tokens.
            fn scan(tokens: proc_macro2::TokenStream, names: &[String]) -> bool {
                tokens.into_iter().any(|tt| match tt {
                    proc_macro2::TokenTree::Ident(i) => names.iter().any(|n| i == n),
                    proc_macro2::TokenTree::Group(g) => scan(g.stream(), names),
                    _ => false,
                })
            }
            if scan(mac.tokens.clone(), self.names) {
                self.found = true;
            }
        }
    }
    let mut m = M {
        names,
        found: false,
    };
    m.visit_expr(e);
    m.found
}

/// Where a context literal is written: the start of its path (its whole span
/// would walk every token of it).
fn struct_key(lines: &LineTable, s: &syn::ExprStruct) -> usize {
    lines.offset(syn::spanned::Spanned::span(&s.path).start())
}
