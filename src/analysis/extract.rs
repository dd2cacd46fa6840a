//! The per-file pass: one walk over a parsed file that extracts [`FileFacts`].
//!
//! The walk keeps the state that several lints need: local bindings and what
//! they hold (raw or canonical platform values), and the [`Context`] of the
//! code being walked (cfg predicates, branches, guards, test scope).

use syn::visit::{self, Visit};
use syn::{Expr, Pat};

use crate::analysis::cfg::Cfg;
use crate::analysis::facts::{
    Comparison, ConstDef, Context, FileFacts, LoweringContext, ModDecl, Operand, Registration,
    Side, StrExpr, Unregistration, UseDecl,
};
use crate::analysis::values::{
    backend_request, field_name, is_platforms_collection, parse_args, path_last, peel,
    platform_list, str_expr,
};
use crate::diagnostic::Span;
use crate::source::SpanConv;

/// Extract the facts of one parsed file.
pub fn extract(file: &syn::File, conv: SpanConv, text: &str) -> FileFacts {
    let mut walker = Walker {
        conv,
        text,
        facts: FileFacts::default(),
        scopes: vec![Vec::new()],
        ctx: Context::default(),
        next_id: 0,
        in_canonicalizer: 0,
        in_test_code: 0,
        lowering: Vec::new(),
        let_name: None,
        closure_params: None,
        scope: 0,
        failing_calls: Vec::new(),
    };
    for attr in &file.attrs {
        if let Some(cfg) = Cfg::from_attr(attr) {
            walker.ctx.cfgs.push(cfg);
        }
    }
    walker.visit_file(file);
    walker.facts
}

/// What a local binding holds.
#[derive(Debug, Clone)]
struct Binding {
    name: String,
    value: Operand,
    /// Where the value came from, for messages: "`dev.platform()`".
    origin: String,
}

/// A lowering context being collected in the current function.
#[derive(Default)]
struct LoweringCollector {
    contexts: Vec<(String, LoweringContext)>,
}

impl LoweringCollector {
    fn get(&mut self, key: String) -> &mut LoweringContext {
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

struct Walker<'t> {
    conv: SpanConv,
    text: &'t str,
    facts: FileFacts,
    scopes: Vec<Vec<Binding>>,
    ctx: Context,
    next_id: u32,
    /// Inside `fn canonicalize_platform`: raw comparisons belong there.
    in_canonicalizer: u32,
    /// Inside `#[cfg(test)]` code: every function is its own test scope.
    in_test_code: u32,
    /// One collector per function being walked (innermost last).
    lowering: Vec<LoweringCollector>,
    /// The name bound by the `let` whose initialiser is being walked.
    let_name: Option<String>,
    /// What the parameters of the next closure hold (set by the call that takes it).
    closure_params: Option<Operand>,
    /// The inline module being walked (index into `facts.scopes`).
    scope: u32,
    /// Start offsets of calls whose result is asserted to fail.
    failing_calls: Vec<usize>,
}

/// Methods whose closure argument runs at most once, on a registry of its own.
const ONCE_METHODS: &[&str] = &[
    "get_or_init",
    "get_or_try_init",
    "get_or_insert_with",
    "call_once",
    "call_once_force",
];
const REGISTRY_GUARDS: &[&str] = &[
    "is_registered",
    "contains",
    "contains_key",
    "has_backend",
    "is_initialized",
];
const PASSTHROUGH_BINDERS: &[&str] = &["Some", "Ok"];

impl<'t> Walker<'t> {
    fn id(&mut self) -> u32 {
        self.next_id += 1;
        self.next_id
    }

    fn span<T: syn::spanned::Spanned + ?Sized>(&self, node: &T) -> Span {
        self.conv.of(node)
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

    /// The source text of a node, on one line and shortened, for messages.
    fn short_text<T: syn::spanned::Spanned + ?Sized>(&self, node: &T) -> String {
        let s = self.span(node);
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

    fn lookup(&self, name: &str) -> Option<&Binding> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|b| b.name == name)
    }

    fn bind(&mut self, name: String, value: Operand, origin: String) {
        let scope = self.scopes.last_mut().expect("a scope is open");
        scope.push(Binding {
            name,
            value,
            origin,
        });
    }

    fn with_scope(&mut self, f: impl FnOnce(&mut Self)) {
        self.scopes.push(Vec::new());
        f(self);
        self.scopes.pop();
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
            self.ctx.cfgs.len(),
            self.ctx.branches.len(),
            self.ctx.guards.len(),
        );
        let entering_test = cfgs.iter().any(Cfg::is_test);
        self.ctx.cfgs.extend(cfgs);
        self.ctx.branches.extend(branch);
        self.ctx.guards.extend(guards);
        self.in_test_code += u32::from(entering_test);
        f(self);
        self.in_test_code -= u32::from(entering_test);
        self.ctx.cfgs.truncate(saved.0);
        self.ctx.branches.truncate(saved.1);
        self.ctx.guards.truncate(saved.2);
    }

    fn attr_cfgs(attrs: &[syn::Attribute]) -> Vec<Cfg> {
        attrs.iter().filter_map(Cfg::from_attr).collect()
    }

    // ----- values -------------------------------------------------------

    /// What `e` is, as far as platforms go, with the text it came from.
    fn operand(&self, e: &Expr) -> (Operand, String) {
        let text = self.short_text(e);
        let inner = peel(e);
        // A path naming a local binding: its value.
        if let Expr::Path(p) = inner
            && let Some(ident) = p.path.get_ident()
            && let Some(binding) = self.lookup(&ident.to_string())
        {
            let origin = if binding.origin.is_empty() || *ident == binding.origin {
                format!("`{ident}`")
            } else {
                format!("`{ident}` (from `{}`)", binding.origin)
            };
            return (binding.value.clone(), origin);
        }
        let value = match inner {
            Expr::MethodCall(m)
                if m.args.is_empty() && (m.method == "platform" || m.method == "platform_name") =>
            {
                Operand::Raw
            }
            Expr::MethodCall(m) if m.method == "canonicalize_platform" => Operand::Canonical,
            Expr::MethodCall(m)
                if matches!(
                    m.method.to_string().as_str(),
                    "first" | "last" | "get" | "next"
                ) && is_platforms_collection(&m.receiver) =>
            {
                Operand::Canonical
            }
            Expr::Call(c) if path_last(&c.func).as_deref() == Some("canonicalize_platform") => {
                Operand::Canonical
            }
            Expr::Field(_) if field_name(inner).as_deref() == Some("platform") => Operand::Raw,
            Expr::Index(i) if is_platforms_collection(&i.expr) => Operand::Canonical,
            _ => match str_expr(inner, self.scope) {
                Some(s) => Operand::Str(s),
                None => Operand::Other,
            },
        };
        (value, format!("`{text}`"))
    }

    /// What a new binding initialised from `e` holds. A binding of a canonical
    /// literal is a canonical value; of any other string, nothing we track.
    fn binding_value(&self, e: &Expr) -> Operand {
        match self.operand(e).0 {
            Operand::Str(StrExpr::Lit(s)) if crate::platform::is_canonical(&s) => {
                Operand::Canonical
            }
            Operand::Str(_) => Operand::Other,
            v => v,
        }
    }

    /// Bind the names of `pat` to what `value` holds where the shape allows it,
    /// and shadow every other name it binds.
    fn bind_pat(&mut self, pat: &Pat, value: Operand, origin: &str) {
        match pat {
            Pat::Ident(p) if p.subpat.is_none() => {
                self.bind(p.ident.to_string(), value, origin.to_string())
            }
            Pat::Type(t) => self.bind_pat(&t.pat, value, origin),
            Pat::Reference(r) => self.bind_pat(&r.pat, value, origin),
            Pat::Paren(p) => self.bind_pat(&p.pat, value, origin),
            Pat::Guard(g) => self.bind_pat(&g.pat, value, origin),
            Pat::TupleStruct(t)
                if t.elems.len() == 1
                    && t.path
                        .get_ident()
                        .is_some_and(|i| PASSTHROUGH_BINDERS.contains(&i.to_string().as_str())) =>
            {
                self.bind_pat(&t.elems[0], value, origin)
            }
            Pat::Struct(s) => {
                // `let Device { platform, .. } = dev;`: the field is a raw platform.
                for field in &s.fields {
                    let is_platform =
                        matches!(&field.member, syn::Member::Named(n) if n == "platform");
                    let v = if is_platform {
                        Operand::Raw
                    } else {
                        Operand::Other
                    };
                    self.bind_pat(&field.pat, v, "platform")
                }
            }
            _ => self.shadow_all(pat),
        }
    }

    fn shadow_all(&mut self, pat: &Pat) {
        let mut names = Vec::new();
        pat_idents(pat, &mut names);
        for name in names {
            self.bind(name, Operand::Other, String::new());
        }
    }

    // ----- comparisons --------------------------------------------------

    fn compare(&mut self, how: &str, subject: &Expr, others: &[&Expr]) {
        if self.in_canonicalizer > 0 {
            // Raw strings are compared inside the canonicalizer: that is its job.
            return;
        }
        let mut sides = Vec::with_capacity(1 + others.len());
        for e in std::iter::once(subject).chain(others.iter().copied()) {
            let (operand, text) = self.operand(e);
            sides.push(Side {
                operand,
                span: self.span(e),
                text,
            });
        }
        self.record_comparison(how, sides);
    }

    fn record_comparison(&mut self, how: &str, sides: Vec<Side>) {
        if self.in_canonicalizer > 0 {
            return;
        }
        let is_platform = |s: &Side| matches!(s.operand, Operand::Raw | Operand::Canonical);
        let compared = |s: &Side| !matches!(s.operand, Operand::Other);
        if sides.iter().any(is_platform) && sides.iter().filter(|s| compared(s)).count() >= 2 {
            self.facts.comparisons.push(Comparison {
                sides,
                how: how.to_string(),
            });
        }
    }

    /// `match x { "a" => .., "b" | "c" => .. }` and `matches!(x, "a" | "b")`.
    fn compare_with_patterns<'p>(
        &mut self,
        how: &str,
        scrutinee: &Expr,
        pats: impl IntoIterator<Item = &'p Pat>,
    ) {
        let mut lits = Vec::new();
        for pat in pats {
            literal_patterns(pat, &mut lits);
        }
        if lits.is_empty() {
            return;
        }
        let (operand, text) = self.operand(scrutinee);
        let mut sides = vec![Side {
            operand,
            span: self.span(scrutinee),
            text,
        }];
        for lit in lits {
            sides.push(Side {
                operand: Operand::Str(StrExpr::Lit(lit.value())),
                span: self.span(lit),
                text: format!("`{}`", self.short_text(lit)),
            });
        }
        self.record_comparison(how, sides);
    }

    /// Every `const`/`static`: a non-string one still shadows a string one of
    /// the same name elsewhere.
    fn const_item(&mut self, ident: &syn::Ident, e: &Expr) {
        let value = match str_expr(e, self.scope) {
            Some(StrExpr::Lit(value)) => Some(value),
            _ => None,
        };
        self.facts.consts.push(ConstDef {
            name: ident.to_string(),
            value,
            scope: self.scope,
        });
    }

    /// A literal platform list, whose literals are also remembered for the
    /// spelling check of lowering platforms.
    fn platform_list(&mut self, e: &Expr) -> Option<Vec<StrExpr>> {
        let list = platform_list(e, self.scope)?;
        // `&[p]` with a local `p` is not a literal list.
        let local = |p: &StrExpr| matches!(p, StrExpr::Path { segments, .. } if segments.len() == 1 && self.lookup(&segments[0]).is_some());
        if list.iter().any(|(p, _)| local(p)) {
            return None;
        }
        let mut out = Vec::with_capacity(list.len());
        for (p, span) in list {
            self.facts
                .lowering_platforms
                .push((p.clone(), self.conv.span(span)));
            out.push(p);
        }
        Some(out)
    }

    // ----- registrations ------------------------------------------------

    fn registration(
        &mut self,
        callee: &syn::Ident,
        receiver: Option<&Expr>,
        args: Vec<&Expr>,
        call: Span,
    ) {
        let name = callee.to_string();
        // `register*`, but not queries such as `registered_backends(..)`.
        if !name.starts_with("register") || name.starts_with("registered") {
            return;
        }
        let receiver = receiver.map(|r| self.compact_text(r)).unwrap_or_default();
        let (key_expr, primitive) = if name == "register_lowering" {
            // register_lowering(prim, rule, platform): keyed by primitive and platform.
            let (Some(first), Some(last)) = (args.first(), args.last()) else {
                return;
            };
            if args.len() < 3 {
                return;
            }
            let last = match last {
                Expr::Assign(a) => &*a.right,
                other => other,
            };
            (last, Some(self.compact_text(*first)))
        } else {
            let Some(first) = args.first() else { return };
            (*first, None)
        };
        let Some(key) = self.key(key_expr) else {
            return;
        };
        if primitive.is_some() {
            self.facts
                .lowering_platforms
                .push((key.clone(), self.span(key_expr)));
        }
        self.facts.registrations.push(Registration {
            callee: name,
            receiver,
            key,
            lowering_primitive: primitive,
            key_span: self.span(key_expr),
            call_span: call,
            context: self.ctx.clone(),
            expects_failure: self.failing_calls.contains(&call.start),
        });
    }

    /// A registration key: a literal or a const path, never a local variable.
    fn key(&self, e: &Expr) -> Option<StrExpr> {
        let key = str_expr(e, self.scope)?;
        if let StrExpr::Path { segments, .. } = &key
            && segments.len() == 1
            && self.lookup(&segments[0]).is_some()
        {
            return None;
        }
        Some(key)
    }

    /// Keys that the condition of an `if` proves absent in its then-branch
    /// (`!is_registered(k)`), and in its else-branch (`is_registered(k)`).
    fn guards_of(&self, cond: &Expr) -> (Vec<StrExpr>, Vec<StrExpr>) {
        let (mut then_g, mut else_g) = (Vec::new(), Vec::new());
        match cond {
            Expr::Binary(b) if matches!(b.op, syn::BinOp::And(_)) => {
                for side in [&b.left, &b.right] {
                    then_g.extend(self.guards_of(side).0);
                }
            }
            Expr::Paren(p) => return self.guards_of(&p.expr),
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Not(_)) => {
                if let Some(k) = self.guard_key(&u.expr) {
                    then_g.push(k);
                }
            }
            other => {
                if let Some(k) = self.guard_key(other) {
                    else_g.push(k);
                }
            }
        }
        (then_g, else_g)
    }

    fn guard_key(&self, e: &Expr) -> Option<StrExpr> {
        let (name, arg) = match e {
            Expr::MethodCall(m) if m.args.len() == 1 => (m.method.to_string(), &m.args[0]),
            Expr::Call(c) if c.args.len() == 1 => (path_last(&c.func)?, &c.args[0]),
            _ => return None,
        };
        REGISTRY_GUARDS
            .contains(&name.as_str())
            .then(|| self.key(arg))
            .flatten()
    }

    // ----- lowering contexts --------------------------------------------

    /// Which context an expression names: a local (`ctx`, `self.ctx`), the
    /// `let` being initialised, or a context literal written in place.
    fn context_key(&self, e: &Expr) -> String {
        let e = peel(e);
        match e {
            Expr::Path(_) | Expr::Field(_) => self.compact_text(e),
            Expr::MethodCall(m) => self.context_key(&m.receiver),
            _ => match &self.let_name {
                Some(name) => name.clone(),
                None => format!("@{}", self.span(e).start),
            },
        }
    }

    fn lowering_here(&mut self) -> Option<&mut LoweringCollector> {
        self.lowering.last_mut()
    }

    fn backend_site(&mut self, key: String, arg: &Expr) {
        let Some((platform, call)) = backend_request(arg, self.scope) else {
            return;
        };
        let span = self.span(call);
        if let Some(l) = self.lowering_here() {
            l.get(key).backends.push((platform, span));
        }
    }

    fn platforms_site(&mut self, key: String, list: &Expr) -> bool {
        let Some(platforms) = self.platform_list(list) else {
            return false;
        };
        let span = self.span(list);
        if let Some(l) = self.lowering_here() {
            l.get(key).platforms.push((platforms, span));
        }
        true
    }

    /// `lower(&ctx, &["gpu"])`, `ctx.lower_for(["gpu"])`.
    fn lowering_call(&mut self, receiver: Option<&Expr>, args: &[&Expr]) {
        let list_at = args.iter().position(|a| {
            platform_list(a, self.scope).is_some_and(|l| {
                l.iter().all(|(p, _)| !matches!(p, StrExpr::Path { segments, .. } if segments.len() == 1 && self.lookup(&segments[0]).is_some()))
            })
        });
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
        let key = self.context_key(ctx);
        self.platforms_site(key, args[list_at]);
    }

    fn in_function(&mut self, is_test: bool, name: &str, f: impl FnOnce(&mut Self)) {
        let saved_scopes = std::mem::replace(&mut self.scopes, vec![Vec::new()]);
        let saved_test = self.ctx.test_scope;
        let saved_function = self.ctx.function;
        self.ctx.function = self.id();
        let saved_let = self.let_name.take();
        if is_test || self.in_test_code > 0 {
            self.ctx.test_scope = Some(self.id());
        }
        let canonicalizer = u32::from(name == "canonicalize_platform");
        self.in_canonicalizer += canonicalizer;
        self.lowering.push(LoweringCollector::default());
        // Items and `use`s inside a body are visible in that body only: a
        // block scope of its own, `{name#id}`, below the module.
        let saved_scope = self.scope;
        let mut block = self.facts.scopes[self.scope as usize].clone();
        block.push(format!("{{{name}#{}}}", self.ctx.function));
        self.facts.scopes.push(block);
        self.scope = (self.facts.scopes.len() - 1) as u32;
        f(self);
        self.scope = saved_scope;
        let collector = self.lowering.pop().expect("pushed above");
        for (_, ctx) in collector.contexts {
            let has_backend = !ctx.backends.is_empty() || !ctx.backend_reads.is_empty();
            let has_platforms = !ctx.platforms.is_empty() || !ctx.loop_platforms.is_empty();
            if has_backend && has_platforms {
                self.facts.lowering.push(ctx);
            }
        }
        self.in_canonicalizer -= canonicalizer;
        self.ctx.test_scope = saved_test;
        self.ctx.function = saved_function;
        self.scopes = saved_scopes;
        self.let_name = saved_let;
    }

    // ----- macros -------------------------------------------------------

    fn visit_macro_tokens(&mut self, mac: &syn::Macro) {
        use syn::parse::Parser;
        let name = mac
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        match name.as_str() {
            // A template, not code that runs: never analysed.
            "macro_rules" => return,
            // Predicates, not code.
            "cfg" | "concat" | "stringify" | "include_str" | "include" | "env" | "option_env" => {
                return;
            }
            "matches" | "assert_matches" | "debug_assert_matches" => {
                if let Ok((e, p)) = parse_matches(&mac.tokens) {
                    self.compare_with_patterns(&format!("{name}!"), &e, [&p]);
                    self.visit_expr(&e);
                }
                return;
            }
            _ => {}
        }
        if name == "lazy_static" {
            // `static ref NAME: T = expr;` is not item syntax: drop the `ref`s.
            let tokens = drop_static_ref(mac.tokens.clone());
            if let Ok(file) = syn::parse2::<syn::File>(tokens) {
                file.items.iter().for_each(|i| self.visit_item(i));
            }
            return;
        }
        if let Some(args) = parse_args(&mac.tokens) {
            let args: Vec<&Expr> = args.iter().collect();
            self.mark_failing(&name, &args);
            if matches!(
                name.as_str(),
                "assert_eq" | "assert_ne" | "debug_assert_eq" | "debug_assert_ne"
            ) && args.len() >= 2
            {
                self.compare(&format!("{name}!"), args[0], &[args[1]]);
            }
            for arg in args {
                self.visit_expr(arg);
            }
            return;
        }
        if let Ok(stmts) = Parser::parse2(syn::Block::parse_within, mac.tokens.clone()) {
            self.with_scope(|w| stmts.iter().for_each(|s| w.visit_stmt(s)));
            return;
        }
        if let Ok(file) = syn::parse2::<syn::File>(mac.tokens.clone()) {
            file.items.iter().for_each(|i| self.visit_item(i));
        }
    }

    fn visit_closure_with(&mut self, e: &Expr, params: Option<Operand>) {
        self.closure_params = params;
        self.visit_expr(e);
        self.closure_params = None;
    }
}

/// A line of code without its `//` comment (a `//` inside a string stays).
fn strip_line_comment(line: &str) -> &str {
    let mut in_str = false;
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match c {
            '"' if prev != '\\' => in_str = !in_str,
            '/' if !in_str && prev == '/' => return &line[..i - 1],
            _ => {}
        }
        prev = c;
    }
    line
}

fn strip_parens(mut e: &Expr) -> &Expr {
    loop {
        e = match e {
            Expr::Paren(p) => &p.expr,
            Expr::Group(g) => &g.expr,
            Expr::Reference(r) => &r.expr,
            _ => return e,
        };
    }
}

/// `matches!(expr, pattern)` / `matches!(expr, pattern if guard)`.
fn parse_matches(tokens: &proc_macro2::TokenStream) -> syn::Result<(Expr, Pat)> {
    use syn::parse::Parser;
    Parser::parse2(
        |input: syn::parse::ParseStream| {
            let e: Expr = input.parse()?;
            input.parse::<syn::Token![,]>()?;
            let p = Pat::parse_multi_with_leading_vert(input)?;
            let _rest: proc_macro2::TokenStream = input.parse()?;
            Ok((e, p))
        },
        tokens.clone(),
    )
}

/// `static ref X` -> `static X`, as `lazy_static!` writes its items.
fn drop_static_ref(tokens: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    let mut out = Vec::new();
    let mut after_static = false;
    for tt in tokens {
        if let proc_macro2::TokenTree::Ident(i) = &tt {
            if after_static && i == "ref" {
                after_static = false;
                continue;
            }
            after_static = i == "static";
        } else {
            after_static = false;
        }
        out.push(tt);
    }
    out.into_iter().collect()
}

/// `use a::{b as c, d::*}` as one [`UseDecl`] per name.
fn flatten_use(tree: &syn::UseTree, prefix: &mut Vec<String>, scope: u32, out: &mut Vec<UseDecl>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten_use(&p.tree, prefix, scope, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            let (alias, target) = if name == "self" {
                (prefix.last().cloned(), prefix.clone())
            } else {
                let mut t = prefix.clone();
                t.push(name.clone());
                (Some(name), t)
            };
            out.push(UseDecl {
                scope,
                alias,
                target,
            });
        }
        syn::UseTree::Rename(r) => {
            let mut target = prefix.clone();
            let name = r.ident.to_string();
            if name != "self" {
                target.push(name);
            }
            out.push(UseDecl {
                scope,
                alias: Some(r.rename.to_string()),
                target,
            });
        }
        syn::UseTree::Glob(_) => out.push(UseDecl {
            scope,
            alias: None,
            target: prefix.clone(),
        }),
        syn::UseTree::Group(g) => g
            .items
            .iter()
            .for_each(|t| flatten_use(t, prefix, scope, out)),
    }
}

/// Every name a pattern binds.
fn pat_idents(pat: &Pat, out: &mut Vec<String>) {
    match pat {
        Pat::Ident(p) => {
            out.push(p.ident.to_string());
            if let Some((_, sub)) = &p.subpat {
                pat_idents(sub, out);
            }
        }
        Pat::Or(o) => o.cases.iter().take(1).for_each(|c| pat_idents(c, out)),
        Pat::Paren(p) => pat_idents(&p.pat, out),
        Pat::Reference(r) => pat_idents(&r.pat, out),
        Pat::Slice(s) => s.elems.iter().for_each(|p| pat_idents(p, out)),
        Pat::Struct(s) => s.fields.iter().for_each(|f| pat_idents(&f.pat, out)),
        Pat::Tuple(t) => t.elems.iter().for_each(|p| pat_idents(p, out)),
        Pat::TupleStruct(t) => t.elems.iter().for_each(|p| pat_idents(p, out)),
        Pat::Type(t) => pat_idents(&t.pat, out),
        Pat::Guard(g) => pat_idents(&g.pat, out),
        _ => {}
    }
}

/// String literals a pattern matches: `"a"`, `"a" | "b"`, `"a" if ..`.
fn literal_patterns<'p>(pat: &'p Pat, out: &mut Vec<&'p syn::LitStr>) {
    match pat {
        Pat::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => out.push(s),
        Pat::Or(o) => o.cases.iter().for_each(|c| literal_patterns(c, out)),
        Pat::Paren(p) => literal_patterns(&p.pat, out),
        Pat::Reference(r) => literal_patterns(&r.pat, out),
        Pat::Guard(g) => literal_patterns(&g.pat, out),
        Pat::Ident(p) => {
            if let Some((_, sub)) = &p.subpat {
                literal_patterns(sub, out)
            }
        }
        _ => {}
    }
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

/// Attributes of the expressions that can stand as statements.
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

/// `let` expressions of an `if let .. && let ..` chain, and the other conditions.
fn let_chain<'e>(cond: &'e Expr, out: &mut Vec<&'e Expr>) {
    match cond {
        Expr::Binary(b) if matches!(b.op, syn::BinOp::And(_)) => {
            let_chain(&b.left, out);
            let_chain(&b.right, out);
        }
        other => out.push(other),
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
        let cfgs = Self::attr_cfgs(attrs);
        self.with_context(cfgs, None, Vec::new(), |w| visit::visit_item(w, item));
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
        let name = f.sig.ident.to_string();
        self.in_function(is_test_fn(&f.attrs), &name, |w| visit::visit_item_fn(w, f));
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        let name = f.sig.ident.to_string();
        self.in_function(is_test_fn(&f.attrs), &name, |w| {
            visit::visit_impl_item_fn(w, f)
        });
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        let name = f.sig.ident.to_string();
        self.in_function(false, &name, |w| visit::visit_trait_item_fn(w, f));
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        let name = m.ident.to_string();
        let Some((_, items)) = &m.content else {
            let path_attr =
                m.attrs
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
                    });
            self.facts.mod_decls.push(ModDecl {
                name,
                path_attr,
                cfgs: self.ctx.cfgs.clone(),
                scope: self.scope,
            });
            return;
        };
        let mut path = self.facts.scopes[self.scope as usize].clone();
        path.push(name);
        let saved = self.scope;
        self.scope = match self.facts.scopes.iter().position(|s| *s == path) {
            Some(i) => i as u32,
            None => {
                self.facts.scopes.push(path);
                (self.facts.scopes.len() - 1) as u32
            }
        };
        for item in items {
            self.visit_item(item);
        }
        self.scope = saved;
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut prefix = Vec::new();
        flatten_use(&u.tree, &mut prefix, self.scope, &mut self.facts.uses);
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
        // `macro_rules!` bodies are templates; `visit_macro_tokens` skips them.
        self.visit_macro(&m.mac);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_macro_tokens(mac);
    }

    fn visit_block(&mut self, b: &'ast syn::Block) {
        self.with_scope(|w| visit::visit_block(w, b));
    }

    fn visit_stmt(&mut self, s: &'ast syn::Stmt) {
        let attrs: &[syn::Attribute] = match s {
            syn::Stmt::Local(l) => &l.attrs,
            syn::Stmt::Macro(m) => &m.attrs,
            syn::Stmt::Expr(e, _) => expr_attrs(e),
            syn::Stmt::Item(_) => &[],
        };
        let cfgs = Self::attr_cfgs(attrs);
        if cfgs.is_empty() {
            visit::visit_stmt(self, s);
        } else {
            self.with_context(cfgs, None, Vec::new(), |w| visit::visit_stmt(w, s));
        }
    }

    fn visit_local(&mut self, l: &'ast syn::Local) {
        let Some(init) = &l.init else {
            self.shadow_all(&l.pat);
            return;
        };
        let name = match &l.pat {
            Pat::Ident(p) => Some(p.ident.to_string()),
            Pat::Type(t) => match &*t.pat {
                Pat::Ident(p) => Some(p.ident.to_string()),
                _ => None,
            },
            _ => None,
        };
        let saved = self.let_name.take();
        // `let ctx = ..` again: a new context, unless built from the old one
        // (`let ctx = ctx.with_backend(..)`).
        if let Some(name) = &name
            && self.context_key(&init.expr) != *name
        {
            let retired = format!("{name}@{}", self.span(&l.pat).start);
            if let Some(collector) = self.lowering.last_mut()
                && let Some(entry) = collector.contexts.iter_mut().find(|(k, _)| k == name)
            {
                entry.0 = retired;
            }
        }
        self.let_name = name;
        self.visit_expr(&init.expr);
        self.let_name = saved;
        if let Some((_, diverge)) = &init.diverge {
            self.visit_expr(diverge);
        }
        // `let (a, b) = (x.platform(), y);` binds pairwise.
        if let (Pat::Tuple(pt), Expr::Tuple(et)) = (&l.pat, peel(&init.expr))
            && pt.elems.len() == et.elems.len()
        {
            for (p, e) in pt.elems.iter().zip(et.elems.iter()) {
                let v = self.binding_value(e);
                let origin = self.short_text(e);
                self.bind_pat(p, v, &origin);
            }
            return;
        }
        let value = self.binding_value(&init.expr);
        let origin = self.short_text(&*init.expr);
        self.bind_pat(&l.pat, value, &origin);
    }

    fn visit_expr_if(&mut self, e: &'ast syn::ExprIf) {
        let id = self.id();
        let (then_guards, else_guards) = self.guards_of(&e.cond);
        let cfg = cfg_condition(&e.cond);
        let then_cfg: Vec<Cfg> = cfg.iter().cloned().collect();
        let else_cfg: Vec<Cfg> = cfg.map(Cfg::negate).into_iter().collect();
        self.with_scope(|w| {
            let mut conds = Vec::new();
            let_chain(&e.cond, &mut conds);
            for c in conds {
                if let Expr::Let(l) = c {
                    w.visit_expr(&l.expr);
                    let v = w.binding_value(&l.expr);
                    let origin = w.short_text(&*l.expr);
                    w.bind_pat(&l.pat, v, &origin);
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
        self.compare_with_patterns("match", &m.expr, m.arms.iter().map(|a| &a.pat));
        let id = self.id();
        let value = self.binding_value(&m.expr);
        let origin = self.short_text(&*m.expr);
        for (i, arm) in m.arms.iter().enumerate() {
            let cfgs = Self::attr_cfgs(&arm.attrs);
            let arm_no = u32::try_from(i).unwrap_or(u32::MAX);
            self.with_context(cfgs, Some((id, arm_no)), Vec::new(), |w| {
                w.with_scope(|w| {
                    // `Some(p) if p == "cuda"`: `p` holds what the scrutinee holds.
                    w.bind_pat(&arm.pat, value.clone(), &origin);
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
                let v = w.binding_value(&l.expr);
                w.bind_pat(&l.pat, v, "");
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
        let loop_list = platform_list(&f.expr, self.scope).map(|l| (l, self.span(&*f.expr)));
        self.with_scope(|w| {
            let v = if is_platforms_collection(&f.expr) {
                Operand::Canonical
            } else {
                Operand::Other
            };
            w.bind_pat(&f.pat, v, "platforms");
            w.visit_block(&f.body);
        });
        if let Some((list, span)) = loop_list
            && list.len() > 1
        {
            let pat_names = {
                let mut n = Vec::new();
                pat_idents(&f.pat, &mut n);
                n
            };
            let platforms = list.iter().map(|(p, _)| p.clone()).collect();
            if self.loop_lowering(&f.body, &pat_names, platforms, span) {
                // Only now are these literals known to be lowering platforms.
                for (p, at) in list {
                    self.facts.lowering_platforms.push((p, self.conv.span(at)));
                }
            }
        }
    }

    fn visit_expr_closure(&mut self, c: &'ast syn::ExprClosure) {
        let params = self.closure_params.take();
        self.with_scope(|w| {
            for p in &c.inputs {
                match &params {
                    Some(v) => w.bind_pat(p, v.clone(), "platforms"),
                    // `|Device { platform, .. }|` still binds a raw platform.
                    None => w.bind_pat(p, Operand::Other, ""),
                }
            }
            w.visit_expr(&c.body);
        });
    }

    fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
        if matches!(b.op, syn::BinOp::Eq(_) | syn::BinOp::Ne(_)) {
            let how = if matches!(b.op, syn::BinOp::Eq(_)) {
                "=="
            } else {
                "!="
            };
            self.compare(how, &b.left, &[&b.right]);
        }
        visit::visit_expr_binary(self, b);
    }

    fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
        // `ctx = LoweringContext::new()..`: from here on, another context.
        if let Expr::Path(p) = &*a.left
            && let Some(ident) = p.path.get_ident()
        {
            let name = ident.to_string();
            if self.context_key(&a.right) != name {
                let retired = format!("{name}@{}", self.span(a).start);
                if let Some(collector) = self.lowering.last_mut()
                    && let Some(entry) = collector.contexts.iter_mut().find(|(k, _)| *k == name)
                {
                    entry.0 = retired;
                }
                let saved = self.let_name.replace(name);
                visit::visit_expr_assign(self, a);
                self.let_name = saved;
                return;
            }
        }
        // `ctx.platforms = vec!["gpu"];` / `ctx.backend = Some(get_backend("cpu")?);`
        if let Expr::Field(f) = &*a.left {
            let key = self.context_key(&f.base);
            match field_name(&a.left).as_deref() {
                Some("platforms") => {
                    self.platforms_site(key, &a.right);
                }
                Some("backend") => self.backend_site(key, &a.right),
                _ => {}
            }
        }
        visit::visit_expr_assign(self, a);
    }

    fn visit_expr_struct(&mut self, s: &'ast syn::ExprStruct) {
        let key = match &self.let_name {
            Some(n) => n.clone(),
            None => format!("@{}", self.span(s).start),
        };
        for field in &s.fields {
            if let syn::Member::Named(n) = &field.member {
                if n == "backend" {
                    self.backend_site(key.clone(), &field.expr);
                } else if n == "platforms" {
                    self.platforms_site(key.clone(), &field.expr);
                }
            }
        }
        // Fields are not `let` initialisers of their own.
        let saved = self.let_name.take();
        visit::visit_expr_struct(self, s);
        self.let_name = saved;
    }

    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        let span = self.span(c);
        let args: Vec<&Expr> = c.args.iter().collect();
        let mut once = false;
        if let Expr::Path(p) = &*c.func
            && let Some(last) = p.path.segments.last()
        {
            self.registration(&last.ident, None, args.clone(), span);
            self.unregistration(&last.ident.to_string(), None, &args, span);
            if last.ident.to_string().starts_with("lower") {
                self.lowering_call(None, &args);
            }
            // `Lazy::new(|| ..)`, `LazyLock::new(|| ..)`: runs once.
            let segs: Vec<String> = p
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            once = segs.len() >= 2
                && segs[segs.len() - 1] == "new"
                && matches!(
                    segs[segs.len() - 2].as_str(),
                    "Lazy" | "LazyLock" | "LazyCell"
                );
        }
        if once {
            self.in_once_closure(|w| visit::visit_expr_call(w, c));
        } else {
            visit::visit_expr_call(self, c);
        }
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        let span = self.span(m);
        let name = m.method.to_string();
        let args: Vec<&Expr> = m.args.iter().collect();
        match name.as_str() {
            "eq" | "ne" | "eq_ignore_ascii_case" if args.len() == 1 => {
                self.compare(&format!(".{name}()"), &m.receiver, &[args[0]]);
            }
            "with_backend" | "replace_backend" | "set_backend" if args.len() == 1 => {
                let key = self.context_key(&m.receiver);
                self.backend_site(key, args[0]);
            }
            "get_backend" if args.is_empty() => {
                let key = self.context_key(&m.receiver);
                if let Some(l) = self.lowering_here() {
                    l.get(key).backend_reads.push(span);
                }
            }
            n if n.starts_with("lower") => self.lowering_call(Some(&m.receiver), &args),
            _ => {}
        }
        self.registration(&m.method, Some(&m.receiver), args.clone(), span);
        self.unregistration(&name, Some(&m.receiver), &args, span);
        if matches!(name.as_str(), "unwrap_err" | "expect_err") {
            // `r.register(..).unwrap_err()`: the call is expected to fail.
            self.failing_calls
                .push(self.span(strip_parens(&m.receiver)).start);
        }

        // Closures over lowering platforms get canonical parameters.
        let params = is_platforms_collection(&m.receiver).then_some(Operand::Canonical);
        self.visit_expr(&m.receiver);
        let once = ONCE_METHODS.contains(&name.as_str());
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
    fn in_once_closure(&mut self, f: impl FnOnce(&mut Self)) {
        let saved = self.ctx.once_scope;
        self.ctx.once_scope = Some(self.id());
        f(self);
        self.ctx.once_scope = saved;
    }

    /// `r.unregister(key)`, `r.remove(key)`, `r.deregister(key)`, `unregister_backend(key)`.
    fn unregistration(&mut self, name: &str, receiver: Option<&Expr>, args: &[&Expr], span: Span) {
        let removes = name.starts_with("unregister")
            || name.starts_with("deregister")
            || (receiver.is_some() && matches!(name, "remove" | "remove_entry" | "take"));
        if !removes {
            return;
        }
        let Some(key) = args.first().and_then(|a| self.key(a)) else {
            return;
        };
        self.facts.unregistrations.push(Unregistration {
            receiver: receiver.map(|r| self.compact_text(r)).unwrap_or_default(),
            key,
            span,
            function: self.ctx.function,
        });
    }

    /// Calls whose result an assertion expects to be an error:
    /// `assert!(c.is_err())`, `assert_eq!(c, Err(..))`, `assert!(matches!(c, Err(..)))`.
    fn mark_failing(&mut self, name: &str, args: &[&Expr]) {
        let is_err_pat = |p: &Pat| matches!(p, Pat::TupleStruct(t) if t.path.is_ident("Err"));
        let is_err_expr =
            |e: &Expr| matches!(e, Expr::Call(c) if path_last(&c.func).as_deref() == Some("Err"));
        let mut failing: Vec<&Expr> = Vec::new();
        match name {
            "assert" | "debug_assert" => {
                let Some(cond) = args.first() else { return };
                match strip_parens(cond) {
                    Expr::MethodCall(m) if m.method == "is_err" => failing.push(&m.receiver),
                    Expr::Macro(mac) if mac.mac.path.is_ident("matches") => {
                        if let Ok((e, p)) = parse_matches(&mac.mac.tokens)
                            && is_err_pat(&p)
                        {
                            let start = self.span(strip_parens(&e)).start;
                            self.failing_calls.push(start);
                        }
                    }
                    _ => {}
                }
            }
            "assert_eq" | "debug_assert_eq" if args.len() >= 2 => {
                if is_err_expr(args[1]) {
                    failing.push(args[0]);
                } else if is_err_expr(args[0]) {
                    failing.push(args[1]);
                }
            }
            "assert_matches" | "debug_assert_matches" => {}
            _ => {}
        }
        for e in failing {
            let start = self.span(strip_parens(e)).start;
            self.failing_calls.push(start);
        }
    }

    /// A `for` loop over several literal platforms whose body lowers a context
    /// that was given a backend outside the loop.
    fn loop_lowering(
        &mut self,
        body: &syn::Block,
        loop_vars: &[String],
        list: Vec<StrExpr>,
        span: Span,
    ) -> bool {
        struct Finder<'a> {
            vars: &'a [String],
            contexts: Vec<Expr>,
            /// Context literals built in the loop: (key the walker gave them).
            literals: Vec<String>,
            let_name: Option<String>,
        }
        impl<'ast> Visit<'ast> for Finder<'_> {
            fn visit_local(&mut self, l: &'ast syn::Local) {
                let name = match &l.pat {
                    Pat::Ident(p) => Some(p.ident.to_string()),
                    Pat::Type(t) => match &*t.pat {
                        Pat::Ident(p) => Some(p.ident.to_string()),
                        _ => None,
                    },
                    _ => None,
                };
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
                        Some(n) => n,
                        None => format!("@{}", syn::spanned::Spanned::span(s).byte_range().start),
                    });
                }
                self.let_name = None;
                visit::visit_expr_struct(self, s);
            }
            fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
                if path_last(&c.func).is_some_and(|n| n.starts_with("lower")) {
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
                if m.method.to_string().starts_with("lower")
                    && m.args.iter().any(|a| mentions(a, self.vars))
                {
                    self.contexts.push((*m.receiver).clone());
                }
                visit::visit_expr_method_call(self, m);
            }
        }
        let mut finder = Finder {
            vars: loop_vars,
            contexts: Vec::new(),
            literals: Vec::new(),
            let_name: None,
        };
        finder.visit_block(body);
        let keys: Vec<String> = finder
            .contexts
            .iter()
            .map(|c| self.context_key(c))
            .chain(finder.literals)
            .collect();
        let lowers = !keys.is_empty();
        for key in keys {
            if let Some(l) = self.lowering_here() {
                l.get(key).loop_platforms.push((list.clone(), span));
            }
        }
        lowers
    }
}

/// `true` when an expression mentions one of the names.
fn mentions(e: &Expr, names: &[String]) -> bool {
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
