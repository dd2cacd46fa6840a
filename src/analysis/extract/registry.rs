//! Registrations, their keys and guards, and what undoes or voids them
//! (unregistrations, asserted failures, run-once closures).

use super::*;

/// A registration starts from a registration function or
/// `registration.lowering` called with arguments; a learned switch method
/// (`allow_shadowing(true)`) from its call. An unregistration counts only
/// with a registration of its file, as does a backend registration's name
/// (`registration.backends`, which `non_canonical_platform_literal`
/// reads). Guards and run-once methods only qualify a registration written
/// inside them.
pub(super) const COLLECTOR: Collector = Collector {
    name: "registrations",
    starts: &[
        Start {
            names: Names::RegistrationFunctions,
            at: NameUse::CalleeWithArguments,
            alone: true,
        },
        Start {
            names: Names::LoweringRegistrations,
            at: NameUse::CalleeWithArguments,
            alone: true,
        },
        Start {
            names: Names::Switches,
            at: NameUse::Callee,
            alone: true,
        },
        Start {
            names: Names::Unregister,
            at: NameUse::Callee,
            alone: false,
        },
        Start {
            names: Names::Backends,
            at: NameUse::Callee,
            alone: false,
        },
    ],
    reads: &[Names::Guards, Names::RunOnce],
};

/// The registrations collector's state.
#[derive(Default)]
pub(super) struct Registrations {
    /// Start offsets of calls whose result is asserted to fail.
    failing_calls: Vec<usize>,
    /// Start offsets of calls whose result is asserted to succeed
    /// (`.unwrap()`, `?`, `assert!(..is_ok())`).
    succeeding_calls: Vec<usize>,
    /// Registries told to accept duplicates, and in which function
    /// ([`Registrations::switch_off`]).
    switched: Vec<(u32, Registry)>,
    /// Start offsets of `register*` calls whose result goes back into their
    /// receiver: builders, not registries.
    builder_calls: Vec<usize>,
    /// Method calls of the functions being walked, innermost last, kept if
    /// their function registers on their registry ([`RegistryCall`]).
    calls_here: Vec<RegistryCall>,
    /// The registries registered on in those functions: (function, registry).
    registered_here: Vec<(u32, Registry)>,
    /// The functions being walked, innermost last: the name of a method
    /// of an `impl`, and whether its body names a word of registration
    /// ([`super::summary::Summaries::mentioned_in`]): only such a
    /// function's calls are watched.
    functions: Vec<(Option<String>, bool)>,
}

impl Walker<'_> {
    /// Every `const`/`static`: a non-string one still shadows a string one of
    /// the same name elsewhere.
    pub(super) fn const_item(&mut self, ident: &syn::Ident, e: &Expr) {
        self.cx.facts.consts.push(ConstDef {
            name: ident.to_string(),
            value: const_value(e, self.cx.scope),
            scope: self.cx.scope,
        });
        self.values.str_array(&mut self.cx, ident, e);
    }
}

impl Registrations {
    /// A call by a path (`register_backend(..)`, `Registry::register(r,
    /// ..)`, `add_op(&mut reg, ..)`): a registration or an unregistration.
    pub(super) fn call(
        &mut self,
        cx: &mut Cx<'_>,
        c: &syn::ExprCall,
        p: &syn::ExprPath,
        callee: &syn::Ident,
        name: &str,
        args: &[&Expr],
    ) {
        // `Registry::register_backend(reg, "cuda", f)` is `reg.register_backend("cuda", f)`.
        let (receiver, rest) = match ufcs_receiver(p, args) {
            Some(r) => (Some(r), &args[1..]),
            None => (None, args),
        };
        // A learned method counts only as a method, a learned free
        // function only by a path not through a type; `add_op(&mut reg,
        // "relu", f)`, a learned wrapper of `reg.register(..)`, registers
        // on `reg`.
        let typed = segments_typed(p);
        let arity = Some(rest.len());
        let (counts, receiver) = match cx
            .registration_names()
            .registration_receiver_with(name, arity)
        {
            CallReceiver::Written => (true, receiver),
            CallReceiver::Method { .. } => (receiver.is_some(), receiver),
            // `&mut reg` is `reg`.
            CallReceiver::Free { registry } => (
                !typed,
                registry
                    .and_then(|i| args.get(i).copied())
                    .map(strip_parens),
            ),
            // What a factory registers is held by the local its result is
            // bound to ([`Registrations::factory_result`]), not by the call.
            CallReceiver::Returned => (false, None),
        };
        if counts {
            let generics = match &p.path.segments.last().map(|s| &s.arguments) {
                Some(syn::PathArguments::AngleBracketed(a)) => type_args(cx, &a.args),
                _ => Vec::new(),
            };
            self.registration(cx, (callee, name, &generics), receiver, rest, c);
        }
        self.unregistration(cx, name, receiver, rest, c);
    }

    /// A method call: a registration, an unregistration, a switch
    /// (`allow_shadowing(true)`), or what asserts that the call it is made
    /// on succeeds or fails (`.unwrap()`, `.unwrap_err()`).
    pub(super) fn method_call(
        &mut self,
        cx: &mut Cx<'_>,
        m: &syn::ExprMethodCall,
        name: &str,
        args: &[&Expr],
    ) {
        // A builder's registration waits for what it is chained on
        // ([`Self::after_receiver`]).
        if !cx
            .registration_names()
            .registration_returns_self(name, Some(args.len()))
        {
            self.method_registration(cx, m, name, args);
        }
        self.unregistration(cx, name, Some(&m.receiver), args, m);
        self.switch_off(cx, name, &m.receiver);
        self.state_write(cx, m, name);
        self.registry_call(cx, m, name);
        match name {
            // `r.register(..).unwrap_err()`: the call is expected to fail.
            "unwrap_err" | "expect_err" => self
                .failing_calls
                .extend(callee_id(cx.lines(), &m.receiver)),
            "unwrap" | "expect" => self.mark_succeeding(cx, &m.receiver),
            _ => {}
        }
    }

    /// A method call whose receiver was walked: the registration of a
    /// learned method that hands its receiver back, which comes after the
    /// registrations chained before it (`Router::new().route("/", a)
    /// .route("/", b)` registers `a` first), and after a switch set there
    /// (`Linker::new().allow_shadowing(true).func_wrap(..)`).
    pub(super) fn after_receiver(
        &mut self,
        cx: &mut Cx<'_>,
        m: &syn::ExprMethodCall,
        name: &str,
        args: &[&Expr],
    ) {
        if cx
            .registration_names()
            .registration_returns_self(name, Some(args.len()))
        {
            self.method_registration(cx, m, name, args);
        }
    }

    fn method_registration(
        &mut self,
        cx: &mut Cx<'_>,
        m: &syn::ExprMethodCall,
        name: &str,
        args: &[&Expr],
    ) {
        if !matches!(
            cx.registration_names()
                .registration_receiver_with(name, Some(args.len())),
            CallReceiver::Free { .. }
        ) {
            let generics = (m.turbofish.as_ref()).map_or_else(Vec::new, |t| type_args(cx, &t.args));
            self.registration(cx, (&m.method, name, &generics), Some(&m.receiver), args, m);
        }
    }

    /// The registries the function `function` has registered on so far.
    pub(super) fn registered_in(&self, function: u32) -> impl Iterator<Item = &Registry> {
        (self.registered_here.iter())
            .filter(move |(f, _)| *f == function)
            .map(|(_, r)| r)
    }

    /// Entering a function: `method` its name when it is a method of an
    /// `impl` (or a trait's default method).
    pub(super) fn enter_fn(&mut self, method: Option<String>, watch: bool) {
        self.functions.push((method, watch));
    }

    /// Leaving function `function`: its calls on registries it registers on
    /// are kept, the others dropped.
    pub(super) fn leave_fn(&mut self, cx: &mut Cx<'_>) {
        let function = cx.ctx.function;
        self.functions.pop();
        let first = (self.calls_here.iter()).position(|c| c.context.function == function);
        let Some(first) = first else {
            self.registered_here.retain(|(f, _)| *f != function);
            return;
        };
        let registered: std::collections::HashSet<&Registry> = (self.registered_here.iter())
            .filter(|(f, _)| *f == function)
            .map(|(_, r)| r)
            .collect();
        let mut kept = Vec::new();
        let mut rest = Vec::new();
        for c in self.calls_here.drain(first..) {
            if c.context.function != function {
                rest.push(c);
            } else if registered.contains(&c.registry) {
                kept.push(c);
            }
        }
        self.calls_here.extend(rest);
        cx.facts.registry_calls.extend(kept);
        self.registered_here.retain(|(f, _)| *f != function);
    }

    /// `self.initialized = true`, `self.ready.store(true, ..)`,
    /// `self.cell.set(..)` in a method: it sets that state of its receiver
    /// ([`StateWrite`]). The prefilter keeps such bodies
    /// (`prefilter::bodies`): the same token shapes.
    pub(super) fn state_write_assign(&mut self, cx: &mut Cx<'_>, a: &syn::ExprAssign) {
        let set = match &*a.right {
            Expr::Lit(l) => matches!(&l.lit, syn::Lit::Bool(b) if b.value),
            Expr::Call(c) => matches!(&*c.func, Expr::Path(p) if p.path.is_ident("Some")),
            _ => false,
        };
        if set && let Some(field) = self_field(&a.left) {
            self.push_state_write(cx, field);
        }
    }

    fn state_write(&mut self, cx: &mut Cx<'_>, m: &syn::ExprMethodCall, name: &str) {
        let set = match name {
            "store" => matches!(
                m.args.first(),
                Some(Expr::Lit(syn::ExprLit { lit: syn::Lit::Bool(b), .. })) if b.value
            ),
            "set" => true,
            _ => false,
        };
        if set && let Some(field) = self_field(&m.receiver) {
            self.push_state_write(cx, field);
        }
    }

    fn push_state_write(&mut self, cx: &mut Cx<'_>, field: String) {
        let Some((Some(method), _)) = self.functions.last() else {
            return;
        };
        let write = StateWrite {
            self_type: cx.self_type.clone(),
            method: method.clone(),
            field,
        };
        if !cx.facts.state_writes.contains(&write) {
            cx.facts.state_writes.push(write);
        }
    }

    /// A method call on a receiver that may be a registry of the function
    /// (kept when the function registers on it, [`Self::leave_fn`]).
    fn registry_call(&mut self, cx: &mut Cx<'_>, m: &syn::ExprMethodCall, name: &str) {
        // A registry is named (`registry`, `self.registry`), not made by a
        // call or a literal.
        if !self.functions.last().is_some_and(|(_, watch)| *watch)
            || !matches!(strip_parens(&m.receiver), Expr::Path(_) | Expr::Field(_))
            || cx.registration_names().is_registration(name)
        {
            return;
        }
        let (registry, _) = cx.registry(&m.receiver);
        if matches!(registry, Registry::Free) {
            return;
        }
        self.calls_here.push(RegistryCall {
            registry,
            method: name.to_string(),
            span: cx.span(&m.method),
            context: cx.ctx.clone(),
            returns_at: (cx.frame.returns.iter().min().copied())
                .filter(|_| cx.frame.in_closure == 0),
        });
    }

    /// `call` is the whole call expression; its span is computed only when a
    /// registration is recorded (computing a span walks all its tokens).
    /// A call of `callee`, whose name is `name` (taken once by the caller),
    /// with the type arguments `generics` (`::<i64>`), as written.
    pub(super) fn registration<T: syn::spanned::Spanned>(
        &mut self,
        cx: &mut Cx<'_>,
        (callee, name, generics): (&syn::Ident, &str, &[String]),
        receiver: Option<&Expr>,
        args: &[&Expr],
        call: &T,
    ) {
        // `registration.functions` (by default `register*`, but not queries
        // such as `registered_backends(..)`) and `registration.lowering`.
        let lowering = cx
            .registration_names()
            .has(Names::LoweringRegistrations, name);
        let arity = Some(args.len());
        let key_args = if lowering {
            None
        } else {
            match cx.registration_names().registration_key_with(name, arity) {
                Some(key) => Some(key),
                None => return,
            }
        };
        // A learned helper registers its own keys on the registry it is given.
        let constants = cx.registration_names().registration_constants(name, arity);
        if !constants.is_empty() {
            let id = cx.start_of(callee.span());
            self.helper_call(cx, name, id, receiver, constants, call);
            return;
        }
        // A learned registration with a switch (`insert(name, cx,
        // allow_shadowing, item)`) rejects only when `false` is written there.
        if let Some(at) = cx.registration_names().registration_switch(name, arity)
            && !matches!(args.get(at).map(|a| strip_parens(a)), Some(Expr::Lit(syn::ExprLit { lit: syn::Lit::Bool(b), .. })) if !b.value)
        {
            return;
        }
        let id = cx.start_of(callee.span());
        // A learned method that rejects and hands its receiver back
        // (`Router::new().route(..).route(..)`, `linker.func_wrap(..)?
        // .func_wrap(..)?`): a registry of unique keys, whatever is chained.
        let receiver = receiver.map(|r| self_chain(cx, r));
        let builder = cx
            .registration_names()
            .registration_returns_self(name, arity);
        // A builder that accumulates (`check = check.register("Flatten", err)`,
        // `b.register("a", x).register("a", y)`) is not a registry of unique keys.
        if !builder
            && (self.builder_calls.contains(&id)
                || receiver.is_some_and(|r| matches!(strip_parens(r), Expr::MethodCall(m) if cx.registration_names().is_registration(&m.method.to_string()))))
        {
            return;
        }
        let receiver_type = receiver.and_then(|r| cx.registry_type(r));
        // A learned method named like a collection's counts on `self`, or
        // on a receiver whose type is written (`catalog: &mut Catalog`): the
        // crate pass keeps it where that type is the one it was learned from
        // (`analysis::callees`).
        if let CallReceiver::Method { self_only: true } = cx
            .registration_names()
            .registration_receiver_with(name, arity)
            && receiver.and_then(registry_root).as_deref() != Some("self")
            && !matches!(receiver_type, Some(ReceiverType::Named(_)))
        {
            return;
        }
        let (registry, registry_kind) = match receiver {
            // `Router::new().route(..)`: the value the chain made, its own.
            Some(r) if builder && constructed(r) => (
                Registry::Chain {
                    start: cx.start_of(syn::spanned::Spanned::span(r)),
                    text: cx.compact_text(r),
                },
                RegistryKind::Unknown,
            ),
            Some(r) => cx.registry(r),
            None => Default::default(),
        };
        // The registry was told to accept duplicates earlier in this function
        // (`linker.allow_shadowing(true)`): a second key replaces, by design.
        if self.is_switched(cx, &registry, receiver) {
            return;
        }
        let mut also_keyed_by = Vec::new();
        let mut key_parts: Vec<&Expr> = Vec::new();
        let mut type_key = None;
        // What a learned body compares is its key, whatever its type; a
        // configured name (`register*`) is keyed by a name, and an enum
        // value there (`register_label_defining_type::<Window>(Priority::LIBRARY)`)
        // is some other argument.
        let learned = || {
            !matches!(
                cx.registration_names()
                    .registration_receiver_with(name, arity),
                CallReceiver::Written
            )
        };
        let (key_expr, primitive) = if lowering {
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
            (last, Some(cx.compact_text(*first)))
        } else {
            // The first key argument is the name; all must be known.
            let mut indexes = key_args.unwrap_or(&[0]).iter();
            let Some(&first) = indexes.next() else {
                return;
            };
            // A key past the arguments of a learned function is a type
            // argument (`add_plugin::<P>()` keyed by `TypeId::of::<P>()`):
            // the type written. Not of a name configured (`register_type::<T>()`
            // with no argument has no key).
            let Some(first) = args.get(first).copied().or_else(|| {
                if !learned() {
                    return None;
                }
                let written = generics.get(first.checked_sub(args.len())?)?;
                type_key = Some(cx.type_key(written)?);
                args.first().copied().or(receiver)
            }) else {
                return;
            };
            for &i in indexes {
                key_parts.extend(args.get(i).copied());
                let part = match args.get(i) {
                    Some(a) => match cx.key_of(a, learned) {
                        Some(k) => Some(k),
                        None => return,
                    },
                    None => match generics
                        .get(i.wrapping_sub(args.len()))
                        .filter(|_| learned())
                    {
                        Some(written) => match cx.type_key(written) {
                            Some(k) => Some(k),
                            None => return,
                        },
                        None => None,
                    },
                };
                also_keyed_by.push(part);
            }
            (first, None)
        };
        let key = match type_key {
            Some(k) => k,
            None if lowering => match cx.key(key_expr) {
                Some(k) => k,
                None => return,
            },
            None => match cx.key_of(key_expr, learned).or_else(|| {
                let field = cx
                    .registration_names()
                    .registration_key_field(name, arity)?;
                cx.value_key(key_expr, field)
            }) {
                Some(k) => k,
                None => return,
            },
        };
        if primitive.is_some() {
            let at = cx.span(key_expr);
            cx.facts
                .lowering_platforms
                .push((true, vec![(key.clone(), at)]));
        }
        let (mut key_span, mut call_span) = (cx.span(key_expr), cx.span(call));
        // Made by a local macro: found at its call, the macro named; at the
        // last part of the key written in the call (`"gelu"` of
        // `kernels!(t, "cpu", "relu" => .., "gelu" => ..)`), else the call.
        let via_macro = cx.expansion.as_ref().map(|(site, name, _)| {
            let inside = |s: &Span| site.start <= s.start && s.end <= site.end;
            let parts = std::iter::once(key_expr).chain(key_parts.iter().copied());
            key_span = (parts.map(|e| cx.span(e)).filter(inside).last()).unwrap_or(*site);
            call_span = *site;
            name.clone()
        });
        self.registered_here
            .push((cx.ctx.function, registry.clone()));
        cx.facts.registrations.push(Registration {
            callee: name.to_string(),
            via_macro,
            via_helper: None,
            registry,
            registry_kind,
            key,
            also_keyed_by,
            lowering_primitive: primitive,
            key_span,
            call_span,
            // Not of a call a macro wrote: its tokens' spans are the
            // macro's and the call's, no statement of the file to remove.
            statement: (cx.statement)
                .filter(|s| cx.expansion.is_none() && cx.start_of(s.callee) == id)
                .map(|s| {
                    let start = s.attribute.map_or(call_span.start, |a| cx.start_of(a));
                    let end = cx.lines().offset(s.semi.end());
                    cx.statement_of(Span {
                        start,
                        end,
                        ..call_span
                    })
                }),
            context: cx.ctx.clone(),
            expects_failure: self.failing_calls.contains(&id),
            expects_success: self.succeeding_calls.contains(&id),
            returns_at: cx
                .frame
                .returns
                .iter()
                .min()
                .copied()
                .filter(|_| cx.frame.in_closure == 0),
            args: (args.iter().map(|a| cx.compact_text(*a)))
                .chain(generics.iter().cloned())
                .collect(),
            arity: args.len(),
            receiver_type,
        });
    }

    /// `let mut l = factory(..)?` (or `.unwrap()`, `.expect(..)`,
    /// `.await`): the keys a learned factory registered on the registry it
    /// returns, registered on `l` where the call is.
    pub(super) fn factory_result(&mut self, cx: &mut Cx<'_>, local: &syn::Ident, init: &Expr) {
        let Expr::Call(c) = peel_try(init) else {
            return;
        };
        let Expr::Path(p) = &*c.func else { return };
        let Some(last) = p.path.segments.last() else {
            return;
        };
        if segments_typed(p) {
            return;
        }
        let name = last.ident.to_string();
        let names = cx.registration_names();
        let constants = names.registration_factory(&name, Some(c.args.len()));
        if constants.is_empty() {
            return;
        }
        let constants = constants.to_vec();
        let receiver = Expr::Path(syn::ExprPath {
            attrs: Vec::new(),
            qself: None,
            path: syn::Path::from(local.clone()),
        });
        let id = cx.start_of(last.ident.span());
        self.helper_call(cx, &name, id, Some(&receiver), &constants, c);
    }

    /// A call of the learned helper `helper` (`add_cpu(&mut registry)`):
    /// each of its constant keys registered on the registry it is given, by
    /// the registration the helper calls, found at the call.
    fn helper_call<T: syn::spanned::Spanned>(
        &mut self,
        cx: &mut Cx<'_>,
        helper: &str,
        id: usize,
        receiver: Option<&Expr>,
        constants: &[crate::config::ConstantKey],
        call: &T,
    ) {
        let Some(receiver) = receiver else {
            return;
        };
        let (registry, registry_kind) = cx.registry(receiver);
        if self.is_switched(cx, &registry, Some(receiver)) {
            return;
        }
        let mut call_span = cx.span(call);
        let via_macro = cx.expansion.as_ref().map(|(site, name, _)| {
            call_span = *site;
            name.clone()
        });
        let returns_at =
            (cx.frame.returns.iter().min().copied()).filter(|_| cx.frame.in_closure == 0);
        for c in constants {
            let Some((first, rest)) = c.key.split_first() else {
                continue;
            };
            cx.facts.registrations.push(Registration {
                callee: c.callee.clone(),
                via_macro: via_macro.clone(),
                via_helper: Some(helper.to_string()),
                registry: registry.clone(),
                registry_kind,
                key: StrExpr::Lit(first.clone()),
                also_keyed_by: (rest.iter())
                    .map(|k| Some(StrExpr::Lit(k.clone())))
                    .collect(),
                lowering_primitive: None,
                key_span: call_span,
                call_span,
                // The call registers more than this key, maybe: no fix
                // removes it.
                statement: None,
                context: cx.ctx.clone(),
                expects_failure: self.failing_calls.contains(&id),
                expects_success: self.succeeding_calls.contains(&id),
                returns_at,
                args: Vec::new(),
                arity: 0,
                receiver_type: None,
            });
        }
    }
}

/// The type arguments of a call (`::<i64>`), as written.
fn type_args(
    cx: &Cx<'_>,
    args: &syn::punctuated::Punctuated<syn::GenericArgument, syn::Token![,]>,
) -> Vec<String> {
    args.iter().map(|a| cx.compact_text(a)).collect()
}

impl<'t> Cx<'t> {
    /// Adds `generics`' type parameters to those in scope; returns how many
    /// were in scope before, to truncate back to.
    pub(super) fn push_type_params(&mut self, generics: &syn::Generics) -> usize {
        let outer = self.type_params.len();
        (self.type_params).extend(generics.type_params().map(|p| p.ident.to_string()));
        outer
    }

    /// A key that names an item whatever its type ([`StrExpr::Item`]): a
    /// path of a type argument (`LogPlugin`, `crate::plugins::LogPlugin`),
    /// an enum value or a constant (`Stage::Update`, `ids::GPU`, `GPU`).
    /// Not `Self::NAME` (another item in each `impl`), nor a path through
    /// a type parameter (`P`, `T::NAME`: the caller's), nor a single
    /// lowercase name (a local, or a function, which a local may shadow).
    fn item_key(&self, segments: Vec<String>) -> Option<StrExpr> {
        let first = segments.first()?;
        let ident = |s: &String| {
            s.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
                && s.chars().all(|c| c.is_alphanumeric() || c == '_')
        };
        if !segments.iter().all(ident)
            || first == "Self"
            || (first == "self" && segments.len() == 1)
            || self.type_params.contains(first)
            || (segments.len() == 1 && !first.starts_with(|c: char| c.is_ascii_uppercase()))
            || (segments.len() == 1 && self.lookup(first).is_some())
        {
            return None;
        }
        Some(StrExpr::Item {
            segments,
            scope: self.scope,
        })
    }

    /// The key a key argument gives: a string ([`Self::key`]), or, with
    /// `items`, an item ([`Self::item_key`]).
    /// A path that names no item key stays the path it was: a string
    /// constant the crate pass may resolve, or nothing (a call keyed by a
    /// local is still a registration of its function, keyed by nothing).
    fn key_of(&self, e: &Expr, items: impl Fn() -> bool) -> Option<StrExpr> {
        match self.key(e)? {
            StrExpr::Path { segments, scope } if items() => Some(
                self.item_key(segments.clone())
                    .unwrap_or(StrExpr::Path { segments, scope }),
            ),
            key => Some(key),
        }
    }

    /// The name a registered value was built with, where the registration
    /// is keyed by its `field` (`add_variable(var, ..)` rejecting a second
    /// `var.name`): the field of a struct literal (`Variable { name: "pose"
    /// .., .. }`, or a local holding one), or the one name a constructor
    /// was given (`Variable::se3("gauge", values)`, `Box::new(..)` of it);
    /// none when it was given two (`Counter::new("hits", "help")`).
    pub(super) fn value_key(&self, e: &Expr, field: &str) -> Option<StrExpr> {
        let mut e = peel_try(e);
        // `Box::new(v)`, `Arc::new(v)`, `Rc::new(v)`: `v`.
        while let Expr::Call(c) = e
            && c.args.len() == 1
            && matches!(&*c.func, Expr::Path(p) if p.path.segments.len() == 2
                && p.path.segments[1].ident == "new"
                && matches!(p.path.segments[0].ident.to_string().as_str(), "Box" | "Arc" | "Rc"))
        {
            e = peel_try(&c.args[0]);
        }
        match e {
            Expr::Struct(st) => (st.fields.iter())
                .find(|f| matches!(&f.member, syn::Member::Named(n) if n == field))
                .and_then(|f| self.key(&f.expr)),
            Expr::Path(p) => {
                let b = self.lookup(&p.path.get_ident()?.to_string())?;
                (b.named_fields.iter())
                    .find(|(n, _)| n == field)
                    .map(|(_, k)| k.clone())
            }
            // `Type::constructor(..)` given one name.
            Expr::Call(c) if matches!(&*c.func, Expr::Path(p) if segments_typed(p)) => {
                let mut names = (c.args.iter()).filter(|a| {
                    matches!(strip_parens(a), Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(_), .. }))
                        || matches!(strip_parens(a), Expr::Path(p) if p.path.segments.last().is_some_and(|s| crate::analysis::values::names_a_constant(&s.ident.to_string())))
                });
                match (names.next(), names.next()) {
                    (Some(one), None) => self.key(one),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The key a type argument gives (`::<LogPlugin>`): the type it names.
    fn type_key(&self, written: &str) -> Option<StrExpr> {
        self.item_key(written.split("::").map(str::to_string).collect())
    }

    /// What a receiver's type is, where the walk knows it: `self` in an
    /// `impl`, a field of `self` (by its declaration, found by the crate
    /// pass), a parameter or `let` of a written type, a local made by a
    /// constructor.
    fn registry_type(&self, r: &Expr) -> Option<ReceiverType> {
        let last = |t: &str| crate::analysis::last_segment(t).to_string();
        match strip_parens(r) {
            Expr::Reference(x) => self.registry_type(&x.expr),
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => self.registry_type(&u.expr),
            Expr::Path(p) if p.path.is_ident("self") => {
                let ty = self
                    .self_type
                    .as_deref()
                    .filter(|t| !t.starts_with("dyn "))?;
                Some(ReceiverType::Named(last(ty)))
            }
            Expr::Path(p) => {
                let b = self.lookup(&p.path.get_ident()?.to_string())?;
                (b.ty.clone().or_else(|| b.made.clone())).map(ReceiverType::Named)
            }
            Expr::Field(f) if matches!(strip_parens(&f.base), Expr::Path(p) if p.path.is_ident("self")) =>
            {
                let ty = self
                    .self_type
                    .as_deref()
                    .filter(|t| !t.starts_with("dyn "))?;
                match &f.member {
                    syn::Member::Named(n) => Some(ReceiverType::Field {
                        owner: last(ty),
                        field: n.to_string(),
                    }),
                    syn::Member::Unnamed(_) => None,
                }
            }
            _ => None,
        }
    }

    /// A registration key: a literal or a const path, never a local variable.
    pub(super) fn key(&self, e: &Expr) -> Option<StrExpr> {
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
    pub(super) fn guards_of(&self, cond: &Expr) -> (Vec<StrExpr>, Vec<StrExpr>) {
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
        self.registration_names()
            .has(Names::Guards, &name)
            .then(|| self.key(arg))
            .flatten()
    }
}

impl Walker<'_> {
    pub(super) fn in_once_closure(&mut self, f: impl FnOnce(&mut Self)) {
        let saved = self.cx.ctx.once_scope;
        self.cx.ctx.once_scope = Some(self.cx.id());
        f(self);
        self.cx.ctx.once_scope = saved;
    }
}

impl Registrations {
    /// `linker.allow_shadowing(true)`: a method that sets the field a learned
    /// registration's rejection is switched off by. Later registrations on
    /// that receiver in this function replace rather than fail.
    fn switch_off(&mut self, cx: &mut Cx<'_>, name: &str, receiver: &Expr) {
        if cx.registration_names().has(Names::Switches, name) {
            let registry = cx.registry(receiver).0;
            self.switched.push((cx.ctx.function, registry));
        }
    }

    /// Whether the registry (`linker`, `linker.root()`, `linker.instance("x")?`)
    /// was told to accept duplicates earlier in this function.
    fn is_switched(&self, cx: &Cx<'_>, registry: &Registry, receiver: Option<&Expr>) -> bool {
        let here =
            |r: &Registry| (self.switched.iter()).any(|(f, s)| *f == cx.ctx.function && s == r);
        if self.switched.is_empty() {
            return false;
        }
        // A local inheriting the switch is named by [`Self::inherit_switch`].
        let named = |r: &Expr| registry_root(r).is_some_and(|n| here(&Registry::Expr(n)));
        here(registry) || receiver.is_some_and(|r| here(&cx.registry(chain_root(r)).0) || named(r))
    }

    /// `let mut inst = linker.instance("bench")?;` after
    /// `linker.allow_shadowing(true)`: `inst` accepts duplicates too.
    pub(super) fn inherit_switch(&mut self, cx: &mut Cx<'_>, name: &str, init: &Expr) {
        if self.switched.is_empty() || !self.is_switched(cx, &Registry::Free, Some(init)) {
            return;
        }
        // Named as `registry` names a local that no constructor made.
        (self.switched).push((cx.ctx.function, Registry::Expr(name.to_string())));
    }

    /// `r.unregister(key)`, `r.remove(key)`, `r.deregister(key)`,
    /// `unregister_backend(key)`: `registration.unregister`.
    pub(super) fn unregistration<T: syn::spanned::Spanned>(
        &mut self,
        cx: &mut Cx<'_>,
        name: &str,
        receiver: Option<&Expr>,
        args: &[&Expr],
        call: &T,
    ) {
        if !cx.registration_names().has(Names::Unregister, name) {
            return;
        }
        let Some(key) = args.first().and_then(|a| cx.key(a)) else {
            return;
        };
        cx.facts.unregistrations.push(Unregistration {
            registry: receiver.map(|r| cx.registry(r).0).unwrap_or_default(),
            key,
            span: cx.span(call),
            function: cx.ctx.function,
        });
    }
}

impl<'t> Cx<'t> {
    /// Which registry a receiver is ([`Registry`]), and what kind, known for
    /// a registry made here by a collection's constructor.
    fn registry(&self, r: &Expr) -> (Registry, RegistryKind) {
        let root = registry_root(r);
        if root.as_deref() == Some("self")
            && let Some(ty) = &self.self_type
        {
            let text = self.compact_text(r);
            let ty = ty.clone();
            return (Registry::SelfField { ty, text }, RegistryKind::Unknown);
        }
        let fresh = root.and_then(|i| self.lookup(&i)).and_then(|b| b.fresh);
        if fresh.is_none()
            && let Some(item) = self.item_registry(r)
        {
            return (item, RegistryKind::Unknown);
        }
        let text = self.compact_text(r);
        if fresh.is_none()
            && let Some(root) = registry_root(r)
            && self.params.1.contains(&root)
        {
            let function = self.params.0.map_or(0, |s| self.start_of(s));
            return (Registry::Param { function, text }, RegistryKind::Unknown);
        }
        // A local no constructor made (`let mut group = runner.new_group()`):
        // its own `let`, not its name.
        let fresh = fresh.or_else(|| {
            let local = registry_root(r).and_then(|i| self.lookup(&i))?.local?;
            Some((local, RegistryKind::Unknown))
        });
        match fresh {
            // `r` itself, not `r.inner`: what is in it is not known.
            Some((binding, kind)) => {
                let kind = if matches!(strip_parens(r), Expr::Path(_)) {
                    kind
                } else {
                    RegistryKind::Unknown
                };
                (Registry::Local { binding, text }, kind)
            }
            // `linker.instance("foo")?`: what a chain of calls reaches from a
            // local is that local's (two `let mut linker = ..` are two).
            None => match registry_root(chain_root(r))
                .and_then(|i| self.lookup(&i))
                .and_then(|b| b.fresh.map(|(id, _)| id).or(b.local))
            {
                Some(binding) => (Registry::Local { binding, text }, RegistryKind::Unknown),
                None => (Registry::Expr(text), RegistryKind::Unknown),
            },
        }
    }

    /// A receiver reached through an item's path ([`Registry::Item`]):
    /// `crate::plugins::registry()`, `registry().lock().unwrap()`,
    /// `plugins::REGISTRY`, `REGISTRY`; not a local, a parameter or `self`.
    fn item_registry(&self, r: &Expr) -> Option<Registry> {
        let r = strip_parens(r);
        let mut base = r;
        loop {
            base = match strip_parens(base) {
                Expr::Field(f) => &f.base,
                Expr::MethodCall(m) if m.args.is_empty() => &m.receiver,
                Expr::Try(t) => &t.expr,
                _ => break,
            };
        }
        let path = match strip_parens(base) {
            Expr::Call(c) => match &*c.func {
                Expr::Path(p) if p.qself.is_none() => &p.path,
                _ => return None,
            },
            Expr::Path(p) if p.qself.is_none() => {
                let last = p.path.segments.last()?.ident.to_string();
                let upper = last.chars().all(|c| !c.is_ascii_lowercase());
                if p.path.segments.len() < 2 && !upper {
                    return None;
                }
                &p.path
            }
            _ => return None,
        };
        if path.segments.iter().any(|s| !s.arguments.is_none()) {
            return None;
        }
        let mut segments: Vec<String> = Vec::new();
        if path.leading_colon.is_some() {
            segments.push(String::new());
        }
        segments.extend(path.segments.iter().map(|s| s.ident.to_string()));
        let first = segments.first()?;
        if first == "self" && segments.len() == 1
            || first == "Self"
            || (segments.len() == 1 && self.lookup(first).is_some())
        {
            return None;
        }
        let text = self.compact_text(r);
        let rest = text.strip_prefix(&self.compact_text(path))?.to_string();
        Some(Registry::Item {
            path: segments,
            scope: self.scope,
            rest,
        })
    }
}

impl Registrations {
    /// `x = x.register(..)` / `let x = x.register(..)`: the call hands back the
    /// builder it was called on.
    /// `target` is only computed for a `register*` call (assignments are many).
    pub(super) fn mark_builder(
        &mut self,
        cx: &mut Cx<'_>,
        target: impl FnOnce(&Cx) -> String,
        value: &Expr,
    ) {
        if let Expr::MethodCall(m) = strip_parens(peel_try(value))
            && cx
                .registration_names()
                .is_registration(&m.method.to_string())
            && cx.compact_text(&*m.receiver) == target(cx)
        {
            self.builder_calls.push(cx.start_of(m.method.span()));
        }
    }

    /// Calls whose result an assertion expects to be an error:
    /// `assert!(c.is_err())`, `assert_eq!(c, Err(..))`, `assert!(matches!(c, Err(..)))`.
    pub(super) fn mark_failing(&mut self, cx: &mut Cx<'_>, name: &str, args: &[&Expr]) {
        let is_err_pat = |p: &Pat| matches!(p, Pat::TupleStruct(t) if t.path.is_ident("Err"));
        let is_err_expr =
            |e: &Expr| matches!(e, Expr::Call(c) if path_last(&c.func).as_deref() == Some("Err"));
        let mut failing: Vec<&Expr> = Vec::new();
        match name {
            "assert" | "debug_assert" => {
                let Some(cond) = args.first() else { return };
                match strip_parens(cond) {
                    Expr::MethodCall(m) if m.method == "is_err" => failing.push(&m.receiver),
                    Expr::MethodCall(m) if m.method == "is_ok" => {
                        self.mark_succeeding(cx, &m.receiver)
                    }
                    Expr::Macro(mac) if mac.mac.path.is_ident("matches") => {
                        if let Ok((e, p, _)) = parse_matches(&mac.mac.tokens)
                            && is_err_pat(&p)
                        {
                            self.failing_calls.extend(callee_id(cx.lines(), &e));
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
            _ => {}
        }
        for e in failing {
            self.failing_calls.extend(callee_id(cx.lines(), e));
        }
    }
}

/// The variable an expression starts from: `r` in `r.inner.table`.
pub(super) fn registry_root(e: &Expr) -> Option<String> {
    match strip_parens(e) {
        Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
        Expr::Field(f) => registry_root(&f.base),
        Expr::MethodCall(m) if m.args.is_empty() => registry_root(&m.receiver),
        Expr::Unary(u) => registry_root(&u.expr),
        _ => None,
    }
}

/// The variable a chain of calls starts from: `linker` in
/// `linker.instance("bench")?.root()`.
fn chain_root(mut e: &Expr) -> &Expr {
    loop {
        e = match strip_parens(e) {
            Expr::MethodCall(m) => &m.receiver,
            Expr::Field(f) => &f.base,
            Expr::Try(t) => &t.expr,
            other => return other,
        };
    }
}

/// Identifies a call by where its callee's name starts: cheap, unlike the
/// span of the whole call, and the same wherever the call is seen from.
pub(super) fn callee_id(lines: &LineTable, e: &Expr) -> Option<usize> {
    match strip_parens(e) {
        Expr::MethodCall(m) => Some(lines.offset(m.method.span().start())),
        Expr::Call(c) => match &*c.func {
            Expr::Path(p) => p
                .path
                .segments
                .last()
                .map(|s| lines.offset(s.ident.span().start())),
            _ => None,
        },
        _ => None,
    }
}

impl Registrations {
    /// `r.register(..)?`, `.unwrap()`, `.expect(..)`: a registration whose
    /// result is asserted to succeed. Only registrations are marked: `?`
    /// and `unwrap` are everywhere, and an id costs a position lookup.
    pub(super) fn mark_succeeding(&mut self, cx: &mut Cx<'_>, e: &Expr) {
        let name = match strip_parens(e) {
            Expr::MethodCall(m) => m.method.to_string(),
            Expr::Call(c) => path_last(&c.func).unwrap_or_default(),
            _ => return,
        };
        if cx.registration_names().is_registration(&name) {
            self.succeeding_calls.extend(callee_id(cx.lines(), e));
        }
    }
}

/// The receiver a call chained on learned methods that hand their
/// receiver back is made on (`router` of `router.route(..).route(..)`,
/// `linker` of `linker.func_wrap(..)?.func_wrap(..)?`).
fn self_chain<'e>(cx: &Cx<'_>, mut r: &'e Expr) -> &'e Expr {
    while let Expr::MethodCall(m) = strip_parens(peel_try(strip_parens(r)))
        && (cx.registration_names())
            .registration_returns_self(&m.method.to_string(), Some(m.args.len()))
    {
        r = &m.receiver;
    }
    r
}

/// A value made by a call through a type (`Router::new()`,
/// `Command::new("app")`): a new one at each call.
fn constructed(e: &Expr) -> bool {
    matches!(strip_parens(e), Expr::Call(c) if matches!(&*c.func, Expr::Path(p) if p.qself.is_none() && segments_typed(p)))
}

/// `x?`, `x.unwrap()`, `x.expect(..)`, `x.await`: what `x` holds once it
/// succeeded, the call itself.
fn peel_try(mut e: &Expr) -> &Expr {
    loop {
        e = match strip_parens(e) {
            Expr::Try(t) => &t.expr,
            Expr::Await(a) => &a.base,
            Expr::MethodCall(m)
                if (m.method == "unwrap" && m.args.is_empty())
                    || (m.method == "expect" && m.args.len() == 1) =>
            {
                &m.receiver
            }
            other => return other,
        };
    }
}

pub(super) fn strip_parens(mut e: &Expr) -> &Expr {
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
pub(super) fn parse_matches(
    tokens: &proc_macro2::TokenStream,
) -> syn::Result<(Expr, Pat, Option<Expr>)> {
    use syn::parse::Parser;
    Parser::parse2(
        |input: syn::parse::ParseStream| {
            let e: Expr = input.parse()?;
            input.parse::<syn::Token![,]>()?;
            let p = Pat::parse_multi_with_leading_vert(input)?;
            // `matches!(p, x if x == "gpu")`: the guard compares too.
            let guard = if input.parse::<Option<syn::Token![if]>>()?.is_some() {
                Some(input.parse()?)
            } else {
                None
            };
            let _rest: proc_macro2::TokenStream = input.parse()?;
            Ok((e, p, guard))
        },
        tokens.clone(),
    )
}

/// The receiver of a method called by its path (`Registry::register(reg, ..)`):
/// the path goes through a type (`Registry`, `Self`: capitalised) and the first
/// argument is a variable, borrowed or not (`reg`, `&mut *reg`, `self.table`),
/// not a key (`Registry::register("cuda", f)` is an associated function).
fn ufcs_receiver<'e>(p: &syn::ExprPath, args: &[&'e Expr]) -> Option<&'e Expr> {
    let segments = &p.path.segments;
    if p.qself.is_some() || segments.len() < 2 {
        return None;
    }
    let owner = segments[segments.len() - 2].ident.to_string();
    if !owner.starts_with(|c: char| c.is_ascii_uppercase()) {
        return None;
    }
    let first = crate::analysis::values::strip_borrows(args.first()?);
    let mut root = first;
    while let Expr::Field(f) = root {
        root = &f.base;
    }
    match root {
        Expr::Path(r) if r.qself.is_none() => {
            let ident = r.path.get_ident()?.to_string();
            (ident == "self" || ident.starts_with(|c: char| c.is_lowercase() || c == '_'))
                .then_some(first)
        }
        _ => None,
    }
}

/// A call by a path through a type (`Linker::new(..)`, `Self::f(..)`): an
/// associated function, not a free one of that name.
fn segments_typed(p: &syn::ExprPath) -> bool {
    let segments = &p.path.segments;
    segments.len() >= 2
        && (segments[segments.len() - 2].ident.to_string())
            .starts_with(|c: char| c.is_ascii_uppercase())
}

/// `self.field`, not in parentheses: the field's name.
pub(super) fn self_field(e: &Expr) -> Option<String> {
    let Expr::Field(f) = e else {
        return None;
    };
    let syn::Member::Named(field) = &f.member else {
        return None;
    };
    matches!(&*f.base, Expr::Path(p) if p.path.is_ident("self")).then(|| field.to_string())
}
