//! What a function does with registries (issue 19): whether it rejects a
//! second insertion of a key built from its parameters, which parameters it
//! hands to the key arguments of registrations it calls, which `self` fields
//! it sets. The crate pass learns registration functions from these
//! ([`crate::analysis::infer`]).
//!
//! Parameters flow into a value through any expression that names them
//! (`self.key(module, name)`, `(module, name)`, `format!("{m}.{n}")`) and
//! through `let`s of such values: a key made of two parameters is keyed by
//! both.

use syn::visit::{self, Visit};
use syn::{Expr, Pat};

use super::collect::{self, Asks, Collector, Start};
use super::singleton;
use super::{Cx, parse_args, path_last, self_field, strip_parens};
use crate::config::{NameUse, Names, Vocabulary};
use crate::model::facts::{
    ArgValue, CallVia, FnSummary, ForwardCall, Keeping, Rejection, StateCheck,
};
use crate::syntax::parse::LineTable;
use crate::syntax::rejection::rejection_in_context;

/// A summary is made of a function whose body names a registration (to
/// learn wrappers and helpers), a rejection word where the text around it
/// rejects, or a field that switches a rejection off.
pub(super) const COLLECTOR: Collector = Collector {
    name: "function summaries",
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
            names: Names::Rejections,
            at: NameUse::Rejection,
            alone: true,
        },
        Start {
            names: Names::SwitchFields,
            at: NameUse::Anywhere,
            alone: true,
        },
        // A singleton's mechanism (`STATE.compare_exchange(..)`) or a call
        // of a learned singleton (issue 29).
        Start {
            names: Names::Singletons,
            at: NameUse::Callee,
            alone: true,
        },
    ],
    // A switch turned on on a registry the function registers on
    // (`linker.allow_shadowing(true)`): [`FnSummary::switched`].
    reads: &[Names::Switches],
};

/// The function summaries collector's state.
#[derive(Default)]
pub(super) struct Summaries {
    /// Where the words a function summary records are, found when the first
    /// function is summarized.
    learning: std::cell::OnceCell<LearningWords>,
    /// The file's statics of a std once type (`static HOOK: OnceLock<..>`).
    once_statics: std::cell::OnceCell<Vec<(String, String)>>,
    /// The file calls a singleton's mechanism on a static
    /// ([`singleton::static_mechanism`]): each body is read for one.
    static_mechanism: std::cell::OnceCell<bool>,
    /// In the impl of a trait: its methods are as public as the trait.
    pub(super) trait_impl: bool,
}

impl Summaries {
    /// Whether `body` names a word a summary records (a registration, a
    /// rejection, a switch): a function that may register.
    pub(super) fn mentioned_in(&self, cx: &Cx<'_>, body: &syn::Block) -> bool {
        (self.learning.get())
            .is_some_and(|l| l.any_in(cx.lines().range(body.brace_token.span.join())))
    }

    /// What a function does with registries, for the crate pass to learn
    /// registration functions from.
    /// `public`: another package can name it ([`FnSummary::public`]).
    pub(super) fn summarize(
        &mut self,
        cx: &mut Cx<'_>,
        sig: &syn::Signature,
        body: &syn::Block,
        public: bool,
    ) {
        let learning = (self.learning).get_or_init(|| LearningWords::of(cx.text, cx.vocab));
        let once_statics = (self.once_statics).get_or_init(|| singleton::once_statics(cx.text));
        // A function named as a registration is summarized whatever its
        // body names: what it does with a second key decides its calls.
        let named = Asks {
            vocab: cx.vocab,
            collector: &COLLECTOR,
        }
        .has(Names::RegistrationFunctions, &sig.ident.to_string());
        // Most files hold no such word: no body's place is needed.
        let mechanism =
            *(self.static_mechanism).get_or_init(|| singleton::static_mechanism(cx.text));
        if !named
            && once_statics.is_empty()
            && !mechanism
            && (learning.is_empty()
                || !learning.any_in(cx.lines().range(body.brace_token.span.join())))
        {
            return;
        }
        let self_type = cx.self_type.as_deref();
        let span = cx.span(&sig.ident);
        let (vocab, lines, text) = (cx.vocab, cx.lines(), cx.text);
        let learning = self.learning.get().expect("set above");
        let summary = summarize(sig, body, self_type, vocab, (lines, text, learning), span)
            .map(|s| FnSummary { public, ..s });
        // Singletons (issue 29): the function's own mechanism, its calls of
        // learned singletons.
        let named = |name: &str| vocab.calls_singleton(name);
        let span_at = |at: proc_macro2::Span| cx.span_at(at);
        let mechanism = singleton::mechanism(body);
        let once_statics = self.once_statics.get().expect("set above");
        let calls = singleton::calls(body, self_type, (&named, once_statics), &span_at);
        if mechanism.is_none() && calls.is_empty() {
            cx.facts.functions.extend(summary);
            return;
        }
        let mut summary = summary.unwrap_or_else(|| {
            let mut s = bare_summary(sig, self_type, span);
            s.singleton_only = true;
            s.public = public;
            s
        });
        summary.singleton = mechanism;
        summary.singleton_calls = calls;
        cx.facts.functions.push(summary);
    }
}

/// Where a word a summary records starts in a file's text: a registration
/// function's name, a switch field's, or a rejection word where the text
/// around it rejects ([`rejection_in_context`], which the
/// summary asks too). Comments and strings count (a mention there only
/// costs a summary). Found once per file, in one pass over its bytes: most
/// function bodies (and macros in them) hold none, and their summary would
/// be a second walk for nothing; looking at each body's words on its own
/// took a few percent of a run that parses every file.
pub(super) struct LearningWords(Vec<usize>);

impl LearningWords {
    pub(super) fn of(text: &str, vocab: &Vocabulary) -> LearningWords {
        let b = text.as_bytes();
        let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        let asks = Asks {
            vocab,
            collector: &COLLECTOR,
        };
        let learns = |start: usize, end: usize| {
            let w = &text[start..end];
            !b[start].is_ascii_digit()
                && (asks.is_registration(w)
                    || asks.has(Names::SwitchFields, w)
                    || asks.has(Names::Singletons, w)
                    || (asks.has(Names::Rejections, w) && rejection_in_context(b, start, end)))
        };
        let word_end = |start: usize| start + b[start..].iter().take_while(|&&c| word(c)).count();
        // Where a stem starts a word (a match inside a word ends in it, so
        // it hides no word's start), and that word.
        if let Some(matcher) = vocab.learning_matcher(|| collect::stems_of(vocab, &COLLECTOR)) {
            let at = (matcher.find_iter(text))
                .map(|m| m.start())
                .filter(|&s| s == 0 || !word(b[s - 1]))
                .filter(|&s| learns(s, word_end(s)))
                .collect();
            return LearningWords(at);
        }
        let mut at = Vec::new();
        let mut i = 0;
        while i < b.len() {
            if !word(b[i]) {
                i += 1;
                continue;
            }
            let start = i;
            i = word_end(i);
            if learns(start, i) {
                at.push(start);
            }
        }
        LearningWords(at)
    }

    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether one starts within `range`.
    fn any_in(&self, range: std::ops::Range<usize>) -> bool {
        let k = self.0.partition_point(|&p| p < range.start);
        self.0.get(k).is_some_and(|&p| p < range.end)
    }
}

/// Names a summary lists of what its body calls ([`FnSummary::called`]) at
/// most: a body calling this many or more is not judged silent.
pub const MAX_CALLED: usize = 64;

/// A summary telling nothing but the function's name and parameters.
fn bare_summary(
    sig: &syn::Signature,
    self_type: Option<&str>,
    span: crate::model::diagnostic::Span,
) -> FnSummary {
    let params: Vec<Option<String>> = (sig.inputs.iter())
        .filter_map(|a| match a {
            syn::FnArg::Typed(t) => Some(match &*t.pat {
                Pat::Ident(i) => Some(i.ident.to_string()),
                _ => None,
            }),
            syn::FnArg::Receiver(_) => None,
        })
        .collect();
    FnSummary {
        name: sig.ident.to_string(),
        self_type: self_type.map(str::to_string),
        method: matches!(sig.inputs.first(), Some(syn::FnArg::Receiver(_))),
        span,
        line: sig.ident.span().start().line as u32,
        rejects: None,
        calls: Vec::new(),
        sets_fields: Vec::new(),
        arity: params.len(),
        params,
        keeping: None,
        rejects_after: None,
        returns_self: false,
        switched: Vec::new(),
        singleton: None,
        singleton_calls: Vec::new(),
        singleton_only: false,
        public: false,
        empty: false,
        checks_presence: false,
        called: Vec::new(),
    }
}

/// The summary of one function, `None` when it does nothing of the kind.
pub(super) fn summarize(
    sig: &syn::Signature,
    body: &syn::Block,
    self_type: Option<&str>,
    vocab: &Vocabulary,
    (lines, text, learning): (&LineTable, &str, &LearningWords),
    span: crate::model::diagnostic::Span,
) -> Option<FnSummary> {
    let method = matches!(sig.inputs.first(), Some(syn::FnArg::Receiver(_)));
    // An associated function (`Type::new(..)`) is called through its type,
    // which a call's name alone does not tell: never learned.
    if self_type.is_some() && !method {
        return None;
    }
    let params: Vec<Option<String>> = (sig.inputs.iter())
        .filter_map(|a| match a {
            syn::FnArg::Typed(t) => Some(match &*t.pat {
                Pat::Ident(i) => Some(i.ident.to_string()),
                _ => None,
            }),
            syn::FnArg::Receiver(_) => None,
        })
        .collect();
    let named = Asks {
        vocab,
        collector: &COLLECTOR,
    }
    .has(Names::RegistrationFunctions, &sig.ident.to_string());
    let arity = params.len();
    let result = match self_type {
        None => returned_local(sig, body).map(|l| (l, arity)),
        Some(_) => None,
    };
    // A key may be a type parameter alone (`fn add_plugin<P>(&mut self)`
    // keyed by `TypeId::of::<P>()`). A method named as a registration is
    // summarized whatever it takes: a builder's `register(self)` hands on
    // a key its fields hold, and its body says what a chain ending in it
    // does (`analysis::callees`).
    if result.is_none()
        && !(named && method)
        && params.iter().all(Option::is_none)
        && sig.generics.type_params().next().is_none()
        && vocab.stems(Names::SwitchFields).is_empty()
    {
        return None;
    }
    let names = params.clone();
    // Type parameters are numbered after the parameters, as a call's type
    // arguments follow its arguments (`Registration::args`).
    let generics: Vec<String> = (sig.generics.type_params())
        .map(|p| p.ident.to_string())
        .collect();
    let mut s = Summarizer {
        generics: (generics.into_iter().enumerate())
            .map(|(k, g)| (g, arity + k))
            .collect(),
        vocab: Asks {
            vocab,
            collector: &COLLECTOR,
        },
        learning,
        lines,
        text,
        flows: (params.into_iter().enumerate())
            .filter_map(|(i, p)| Some((p?, vec![i])))
            .collect(),
        named_params: names.iter().flatten().count(),
        rejects: None,
        inserts: Vec::new(),
        calls: Vec::new(),
        sets_fields: Vec::new(),
        lookups: Vec::new(),
        signs: KeepSigns::default(),
        state_check: None,
        result,
        result_at: None,
        switched: Vec::new(),
        checks_presence: false,
        called: Vec::new(),
    };
    s.visit_block(body);
    // A check followed by no insertion into that map validates, it does not
    // register (an `Occupied` arm is the insertion's own branch).
    if let Some(r) = &s.rejects
        && let Some(map) = &r.map
        && !s.inserts.contains(map)
    {
        s.rejects = None;
    }
    let keeping = match named && s.rejects.is_none() {
        true => s.signs.keeping(),
        false => None,
    };
    // A function named as a registration is recorded whatever its body
    // tells: that a body of the name exists decides which calls a learned
    // method of another type may be (`analysis::callees`).
    if !named
        && s.rejects.is_none()
        && !s.checks_presence
        && s.calls.is_empty()
        && s.sets_fields.is_empty()
        && s.state_check.is_none()
    {
        return None;
    }
    Some(FnSummary {
        name: sig.ident.to_string(),
        self_type: self_type.map(str::to_string),
        method,
        span,
        line: sig.ident.span().start().line as u32,
        rejects: s.rejects,
        calls: s.calls,
        sets_fields: s.sets_fields,
        arity,
        params: names,
        keeping,
        rejects_after: s.state_check,
        returns_self: method && returns_self(&sig.output, self_type),
        switched: s.switched,
        singleton: None,
        singleton_calls: Vec::new(),
        singleton_only: false,
        public: false,
        empty: body.stmts.is_empty(),
        checks_presence: s.checks_presence,
        called: s.called,
    })
}

/// `-> Self`, `-> &mut Self`, `-> Result<&mut Self, E>` (or the `impl`'s
/// own type by name): the method hands its receiver back, a builder.
fn returns_self(output: &syn::ReturnType, self_type: Option<&str>) -> bool {
    let syn::ReturnType::Type(_, ty) = output else {
        return false;
    };
    let own = self_type.map(|t| {
        let t = t.split('<').next().unwrap_or(t);
        crate::analysis::last_segment(t)
    });
    let mut ty = &**ty;
    loop {
        ty = match ty {
            syn::Type::Reference(r) => &r.elem,
            syn::Type::Paren(p) => &p.elem,
            syn::Type::Path(p) if p.qself.is_none() => {
                let Some(last) = p.path.segments.last() else {
                    return false;
                };
                if last.ident == "Self" || own.is_some_and(|o| last.ident == o) {
                    return true;
                }
                // `Result<&mut Self, E>`, `Option<Self>`: the first type argument.
                match &last.arguments {
                    syn::PathArguments::AngleBracketed(a) => match a.args.first() {
                        Some(syn::GenericArgument::Type(t)) => t,
                        _ => return false,
                    },
                    _ => return false,
                }
            }
            _ => return false,
        };
    }
}

/// What a body does with a key besides rejecting it
/// ([`crate::model::facts::Keeping`]), as its calls and assignments show.
#[derive(Default)]
struct KeepSigns {
    /// `if self.map.contains_key(k) { return Ok(false); }`: a look-up
    /// answered without failing.
    keeps_first: bool,
    /// `push`, `push_back`, `extend`, `append`: a list grows.
    pushes: bool,
    /// `|=`, `+=`, `and_modify(..)`: an entry updated.
    merges: bool,
    /// `entry(k).or_insert(v)`, `or_default()`: an entry made once.
    or_insert: bool,
    /// `map.insert(k, v)`, `k` made of the parameters: a second value
    /// replaces the first.
    replaces: bool,
}

impl KeepSigns {
    /// The first of these that tells (a map's `insert` replaces, unless a
    /// look-up answered first).
    fn keeping(&self) -> Option<Keeping> {
        Some(if self.keeps_first {
            Keeping::KeepsFirst
        } else if self.replaces {
            Keeping::Replaces
        } else if self.pushes {
            Keeping::Appends
        } else if self.merges {
            Keeping::Merges
        } else if self.or_insert {
            Keeping::KeepsFirst
        } else {
            return None;
        })
    }
}

/// A look-up of a key: `map.contains_key(k)`, `set.contains(k)`,
/// `map.get(k).is_some()`.
fn is_lookup(e: &Expr) -> bool {
    match strip_parens(e) {
        Expr::MethodCall(m) => match m.method.to_string().as_str() {
            "contains_key" | "contains" => m.args.len() == 1,
            "is_some" => {
                matches!(strip_parens(&m.receiver), Expr::MethodCall(g) if g.method == "get")
            }
            _ => false,
        },
        Expr::Binary(b) if matches!(b.op, syn::BinOp::And(_) | syn::BinOp::Or(_)) => {
            is_lookup(&b.left) || is_lookup(&b.right)
        }
        _ => false,
    }
}

/// A block that returns without failing: `return Ok(false);`, `return;`.
fn returns_quietly(b: &syn::Block) -> bool {
    b.stmts.iter().any(|s| match s {
        syn::Stmt::Expr(Expr::Return(r), _) => !r.expr.as_deref().is_some_and(expr_rejects),
        _ => false,
    })
}

/// Methods that give the value they are called on in another form.
const CONVERSIONS: &[&str] = &[
    "to_string",
    "to_owned",
    "into",
    "clone",
    "as_str",
    "as_ref",
    "borrow",
    "trim",
    "to_lowercase",
    "to_ascii_lowercase",
];

struct Summarizer<'a, 't> {
    /// The function's type parameters, each with its number after the
    /// parameters: `TypeId::of::<A>()` in a key is made of `A`.
    generics: Vec<(String, usize)>,
    vocab: Asks<'a>,
    /// Where the file's words that a summary records are.
    learning: &'a LearningWords,
    lines: &'a LineTable<'t>,
    text: &'a str,
    /// Each parameter and local, with the parameters its value is built from.
    flows: Vec<(String, Vec<usize>)>,
    /// How many of `flows` are the parameters (the first ones).
    named_params: usize,
    /// The local a free function returns on every path (`linker` of
    /// `Ok(linker)`), if any: a registry made here and handed to the
    /// caller, numbered as a parameter after the last one (`arity`), so
    /// that what is registered on it is recorded as on a parameter.
    result: Option<(String, usize)>,
    /// Where in `flows` its `let` is.
    result_at: Option<usize>,
    /// [`FnSummary::switched`].
    switched: Vec<usize>,
    /// [`FnSummary::checks_presence`].
    checks_presence: bool,
    /// [`FnSummary::called`].
    called: Vec<(String, CallVia)>,
    rejects: Option<Rejection>,
    /// The maps `.insert(..)` is called on, as written.
    inserts: Vec<String>,
    calls: Vec<ForwardCall>,
    sets_fields: Vec<String>,
    /// The parameters each enclosing `if` condition or `match` scrutinee
    /// is made from: a call under a look-up of its own key is conditional
    /// (wasmtime's `into_instance` re-opens an instance defined already).
    lookups: Vec<Vec<usize>>,
    signs: KeepSigns,
    /// `if self.initialized { return Err(..) }`: the first such check.
    state_check: Option<StateCheck>,
}

impl Summarizer<'_, '_> {
    /// The parameters an expression is built from, in order, once each.
    fn flow(&self, e: &Expr) -> Vec<usize> {
        let mut out = Vec::new();
        self.flow_into(e, &mut out);
        out.sort_unstable();
        out.dedup();
        out
    }

    /// What a key can be made of: a parameter or a local holding one, its
    /// fields, conversions of it (`name.to_string()`), and what calls,
    /// tuples, struct literals and `format!` build from those
    /// (`self.key(module, name)`). Not what a parameter's other methods give
    /// (`cx.waker()` is no key made from `cx`).
    fn flow_into(&self, e: &Expr, out: &mut Vec<usize>) {
        match strip_parens(e) {
            Expr::Path(p) => out.extend(
                p.path
                    .get_ident()
                    .and_then(|i| self.from(i))
                    .into_iter()
                    .flatten(),
            ),
            Expr::MethodCall(m)
                if m.args.is_empty() && CONVERSIONS.contains(&m.method.to_string().as_str()) =>
            {
                self.flow_into(&m.receiver, out)
            }
            // `cx.intern(name)`: what the arguments are made of, never the
            // receiver.
            Expr::MethodCall(m) => m.args.iter().for_each(|a| self.flow_into(a, out)),
            Expr::Call(c) => {
                // `TypeId::of::<A>()`, `type_name::<A>()`: the type parameter.
                if let Expr::Path(p) = &*c.func {
                    self.flow_generics(&p.path, out);
                }
                c.args.iter().for_each(|a| self.flow_into(a, out))
            }
            Expr::Tuple(t) => t.elems.iter().for_each(|a| self.flow_into(a, out)),
            Expr::Struct(st) => st.fields.iter().for_each(|f| self.flow_into(&f.expr, out)),
            Expr::Field(f) => match self.assigned_field(e) {
                Some(from) => out.extend(from),
                None => self.flow_into(&f.base, out),
            },
            Expr::Unary(u) => self.flow_into(&u.expr, out),
            Expr::Cast(c) => self.flow_into(&c.expr, out),
            Expr::Try(t) => self.flow_into(&t.expr, out),
            Expr::Await(a) => self.flow_into(&a.base, out),
            Expr::Macro(m) => self.flow_tokens(m.mac.tokens.clone(), out),
            _ => {}
        }
    }

    /// The type parameters named as a path's type arguments.
    fn flow_generics(&self, path: &syn::Path, out: &mut Vec<usize>) {
        if self.generics.is_empty() {
            return;
        }
        for segment in &path.segments {
            let syn::PathArguments::AngleBracketed(a) = &segment.arguments else {
                continue;
            };
            for arg in &a.args {
                if let syn::GenericArgument::Type(syn::Type::Path(t)) = arg
                    && let Some(i) = t.path.get_ident()
                    && let Some((_, k)) = self.generics.iter().find(|(g, _)| i == g)
                {
                    out.push(*k);
                }
            }
        }
    }

    /// `format!("{module}::{name}")`: the parameters a macro's tokens name.
    fn flow_tokens(&self, tokens: proc_macro2::TokenStream, out: &mut Vec<usize>) {
        for t in tokens {
            match t {
                proc_macro2::TokenTree::Ident(i) => out.extend(self.from(&i).into_iter().flatten()),
                proc_macro2::TokenTree::Group(g) => self.flow_tokens(g.stream(), out),
                _ => {}
            }
        }
    }

    /// What a local's field was last assigned (`entry.key = next_id();`)
    /// after the local was bound, as the parameters it is built from.
    fn assigned_field(&self, e: &Expr) -> Option<&Vec<usize>> {
        let field = local_field(e)?;
        let at = self.flows.iter().rposition(|(n, _)| *n == field)?;
        let base = field.split('.').next().unwrap_or_default();
        let bound = self.flows.iter().rposition(|(n, _)| n == base);
        (bound.is_none_or(|b| b < at)).then(|| &self.flows[at].1)
    }

    /// The parameters a name (a parameter or a local) is built from.
    fn from(&self, name: &proc_macro2::Ident) -> Option<&Vec<usize>> {
        self.flows
            .iter()
            .rev()
            .find(|(n, _)| name == n)
            .map(|(_, from)| from)
    }

    /// The parameter an argument is, by its name (`reg`, `&mut reg`,
    /// `&mut *reg`): a registry handed on.
    fn passed(&self, e: &Expr) -> Option<usize> {
        let e = match strip_parens(e) {
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => strip_parens(&u.expr),
            other => other,
        };
        if !self.names_param(e) {
            return None;
        }
        let Expr::Path(p) = e else { return None };
        match self.from(p.path.get_ident()?)?.as_slice() {
            [i] => Some(*i),
            _ => None,
        }
    }

    /// [`ForwardCall::kept`].
    fn kept(&self, e: &Expr) -> bool {
        let param = |e: &Expr| {
            let e = crate::analysis::values::peel(e);
            matches!(e, Expr::Path(p) if p.path.get_ident().is_some()) && self.names_param(e)
        };
        match strip_parens(e) {
            Expr::Call(c) if matches!(&*c.func, Expr::Path(p) if p.path.segments.len() >= 2) => {
                let named = |a: &&Expr| {
                    param(a)
                        || matches!(
                            strip_parens(a),
                            Expr::Lit(syn::ExprLit {
                                lit: syn::Lit::Str(_),
                                ..
                            })
                        )
                };
                let mut names = c.args.iter().filter(named);
                matches!((names.next(), names.next()), (Some(one), None) if param(one))
            }
            _ => param(e),
        }
    }

    /// `e` is a parameter by its name, not shadowed by a local.
    fn names_param(&self, e: &Expr) -> bool {
        let Expr::Path(p) = e else {
            return false;
        };
        let Some(i) = p.path.get_ident() else {
            return false;
        };
        (self.flows.iter().rposition(|(n, _)| i == n))
            .is_some_and(|k| k < self.named_params || Some(k) == self.result_at)
    }

    /// The parameter a receiver is reached through: `reg` in `reg.map`.
    fn receiver_param(&self, e: &Expr) -> Option<usize> {
        match strip_parens(e) {
            Expr::Field(f) => self.receiver_param(&f.base),
            Expr::Unary(u) => self.receiver_param(&u.expr),
            Expr::Path(p) => {
                let i = p.path.get_ident()?;
                let (_, from) = self.flows.iter().rev().find(|(n, _)| i == n)?;
                (from.len() == 1).then(|| from[0])
            }
            _ => None,
        }
    }

    /// `x.contains_key(k)` (`x` a map of `self` or of a parameter): the
    /// key's parameters, the map's parameter, the check as written.
    fn rejection_check(&self, e: &Expr) -> Option<Rejection> {
        let Expr::MethodCall(m) = strip_parens(e) else {
            return None;
        };
        let name = m.method.to_string();
        if m.args.len() != 1
            || !self.vocab.has(Names::Rejections, &name)
            || matches!(name.as_str(), "insert" | "is_some" | "is_none")
            || !self.in_context(m.method.span())
        {
            return None;
        }
        let map = compact(self.lines, self.text, &*m.receiver);
        self.keyed_check(m, m, Some(map))
    }

    /// A check whose result tells the key was there: `!self.names.insert(k)`,
    /// `self.map.get(&k).is_some()`, `self.map.insert(k, v).is_some()`; with
    /// `absent`, `self.map.get(&k).is_none()` (its `else` fails).
    fn presence_check(&self, e: &Expr, absent: bool) -> Option<Rejection> {
        let (inner, word, outer) = match strip_parens(e) {
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Not(_)) && !absent => {
                let Expr::MethodCall(m) = strip_parens(&u.expr) else {
                    return None;
                };
                (m, &m.method, m)
            }
            Expr::MethodCall(outer) if outer.args.is_empty() => {
                let Expr::MethodCall(inner) = strip_parens(&outer.receiver) else {
                    return None;
                };
                (inner, &outer.method, outer)
            }
            _ => return None,
        };
        let shape = match (word.to_string().as_str(), inner.method.to_string().as_str()) {
            ("insert", "insert") | ("is_some", "get" | "insert") => !absent,
            ("is_none", "get") => absent,
            _ => false,
        };
        if !shape || inner.args.is_empty() || !self.in_context(word.span()) {
            return None;
        }
        let map = compact(self.lines, self.text, &*inner.receiver);
        let mut r = self.keyed_check(inner, outer, Some(map))?;
        if word == "insert" {
            r.check.insert(0, '!');
        }
        Some(r)
    }

    /// The check in an `if` condition, with a switch and-ed before it:
    /// `!self.allow_overwrite && self.map.contains_key(&k)`.
    fn condition(&self, cond: &Expr) -> Option<Rejection> {
        match strip_parens(cond) {
            Expr::Binary(b) if matches!(b.op, syn::BinOp::And(_)) => {
                let mut r = self
                    .condition(&b.right)
                    .or_else(|| self.condition(&b.left))?;
                r.switch = r.switch.or_else(|| switch_field(&b.left));
                r.switch_param = r.switch_param.or_else(|| self.switch_param(&b.left));
                Some(r)
            }
            other => self
                .rejection_check(other)
                .or_else(|| self.presence_check(other, false)),
        }
    }

    /// `!allow_shadowing`: the parameter whose truth skips the check.
    fn switch_param(&self, e: &Expr) -> Option<usize> {
        let Expr::Unary(u) = strip_parens(e) else {
            return None;
        };
        let Expr::Path(p) = strip_parens(&u.expr) else {
            return None;
        };
        match (&u.op, self.from(p.path.get_ident()?)?.as_slice()) {
            (syn::UnOp::Not(_), [i]) => Some(*i),
            _ => None,
        }
    }

    /// What an argument is, where it may be a learned registration's switch.
    fn arg_value(&self, e: &Expr) -> ArgValue {
        // Not behind `&`: no switch is passed by reference
        // (`&mut self.forest` is a map's context).
        let mut e = e;
        while let Expr::Paren(syn::ExprParen { expr, .. })
        | Expr::Group(syn::ExprGroup { expr, .. }) = e
        {
            e = expr;
        }
        match e {
            Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Bool(b),
                ..
            }) => ArgValue::Bool(b.value),
            Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => ArgValue::Str(s.value()),
            // `"cpu".to_string()`, `"cpu".into()`: the literal.
            Expr::MethodCall(m)
                if m.args.is_empty()
                    && CONVERSIONS.contains(&m.method.to_string().as_str())
                    && let Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    }) = strip_parens(&m.receiver) =>
            {
                ArgValue::Str(s.value())
            }
            Expr::Field(f) if matches!(&*f.base, Expr::Path(p) if p.path.is_ident("self")) => {
                match &f.member {
                    syn::Member::Named(n) => ArgValue::SelfField(n.to_string()),
                    syn::Member::Unnamed(_) => ArgValue::Other,
                }
            }
            Expr::Path(p) => match p.path.get_ident().and_then(|i| self.from(i)) {
                Some(from) if from.len() == 1 => ArgValue::Param(from[0]),
                _ => ArgValue::Other,
            },
            _ => ArgValue::Other,
        }
    }

    /// A condition on the receiver's own state alone, made of no parameter:
    /// `self.initialized`, `self.initialized.load(..)`, `self.backend.is_some()`,
    /// `self.cell.get().is_some()`.
    fn state_field(&self, cond: &Expr) -> Option<StateCheck> {
        if !self.flow(cond).is_empty() {
            return None;
        }
        let mut e = strip_parens(cond);
        loop {
            match e {
                Expr::MethodCall(m)
                    if matches!(
                        m.method.to_string().as_str(),
                        "load" | "is_some" | "get" | "is_completed"
                    ) =>
                {
                    e = strip_parens(&m.receiver)
                }
                _ => break,
            }
        }
        Some(StateCheck {
            field: self_field(e)?,
            check: compact(self.lines, self.text, cond),
        })
    }

    /// [`FnSummary::called`]: each name once, at most [`MAX_CALLED`].
    fn note_called(&mut self, name: String, via: CallVia) {
        if self.called.len() < MAX_CALLED
            && !self.called.iter().any(|(n, v)| *n == name && *v == via)
        {
            self.called.push((name, via));
        }
    }

    fn reject(&mut self, r: Option<Rejection>) {
        if self.rejects.is_none() {
            self.rejects = r;
        }
    }

    /// `how`: how it is written, whether on `self`, whether on a field of it.
    fn record_call(
        &mut self,
        callee: String,
        (via, on_self, on_self_field): (CallVia, bool, bool),
        self_field: Option<String>,
        (receiver, receiver_whole): (Option<usize>, bool),
        args: &syn::punctuated::Punctuated<Expr, syn::Token![,]>,
    ) {
        // Only calls that may register: a learned function is in the
        // vocabulary once learned, so a wrapper is found a round later.
        if !self.vocab.is_registration(&callee) {
            return;
        }
        let flows: Vec<Vec<usize>> = args.iter().map(|a| self.flow(a)).collect();
        // Under a look-up of what its key is made of: it defines the key
        // only when absent (or in some other state), no registration.
        let looked_up = |p: &usize| self.lookups.iter().any(|l| l.contains(p));
        if flows.iter().flatten().any(looked_up) {
            return;
        }
        // A call on a parameter may register constant keys on the
        // registry the caller hands over (a helper, [`crate::analysis::infer`]).
        if flows.iter().any(|a| !a.is_empty()) || receiver.is_some() {
            self.calls.push(ForwardCall {
                callee,
                via,
                on_self,
                on_self_field,
                self_field,
                receiver,
                receiver_whole,
                args: flows,
                values: args.iter().map(|a| self.arg_value(a)).collect(),
                passed: args.iter().map(|a| self.passed(a)).collect(),
                kept: args.iter().map(|a| self.kept(a)).collect(),
                conditional: !self.lookups.is_empty(),
            });
        }
    }
}

impl<'ast> Visit<'ast> for Summarizer<'_, '_> {
    /// A statement under `#[cfg(..)]` may not be compiled: what it calls is
    /// conditional, as under an `if`.
    fn visit_stmt(&mut self, st: &'ast syn::Stmt) {
        let cfg = super::stmt_attrs(st)
            .iter()
            .any(|a| a.path().is_ident("cfg"));
        if cfg {
            self.lookups.push(Vec::new());
        }
        visit::visit_stmt(self, st);
        if cfg {
            self.lookups.pop();
        }
    }

    /// `if let Some(id) = self.ids.get(name) { return *id; }`: what
    /// follows in the block runs only when the key was absent, as under
    /// the `if` (a get-or-insert cache, not a registration).
    fn visit_block(&mut self, b: &'ast syn::Block) {
        let depth = self.lookups.len();
        for st in &b.stmts {
            self.visit_stmt(st);
            if let syn::Stmt::Expr(Expr::If(i), _) = st
                && i.else_branch.is_none()
                && returns_quietly(&i.then_branch)
            {
                let looked_up = match &*i.cond {
                    Expr::Let(l) => self.flow(&l.expr),
                    cond => self.flow(cond),
                };
                if !looked_up.is_empty() {
                    self.lookups.push(looked_up);
                }
            }
        }
        self.lookups.truncate(depth);
    }

    fn visit_local(&mut self, l: &'ast syn::Local) {
        visit::visit_local(self, l);
        if let (Some(name), Some(init)) = (super::let_name(&l.pat), &l.init) {
            match &self.result {
                Some((result, at)) if *result == name => {
                    let at = *at;
                    self.result_at = Some(self.flows.len());
                    self.flows.push((name, vec![at]));
                }
                _ => {
                    let from = self.flow(&init.expr);
                    self.flows.push((name, from));
                }
            }
        }
    }

    fn visit_expr_if(&mut self, i: &'ast syn::ExprIf) {
        if is_lookup(&i.cond) && returns_quietly(&i.then_branch) {
            self.signs.keeps_first = true;
        }
        if rejects(&i.then_branch) {
            self.checks_presence |= is_lookup(&i.cond);
            if self.state_check.is_none() {
                self.state_check = self.state_field(&i.cond);
            }
            let r = match &*i.cond {
                // `if let Entry::Occupied(_) = self.map.entry(k) { bail!() }`
                Expr::Let(l) if self.occupied(&l.pat) => self.entry_check(&l.expr),
                cond => self.condition(cond),
            };
            self.reject(r);
        } else if let Some((_, e)) = &i.else_branch
            && expr_rejects(e)
        {
            // `if self.map.get(&k).is_none() { insert } else { Err(..) }`
            let r = self.presence_check(&i.cond, true);
            self.reject(r);
        }
        let looked_up = match &*i.cond {
            Expr::Let(l) => self.flow(&l.expr),
            cond => self.flow(cond),
        };
        self.lookups.push(looked_up);
        visit::visit_expr_if(self, i);
        self.lookups.pop();
    }

    fn visit_expr_match(&mut self, m: &'ast syn::ExprMatch) {
        // `match self.map.entry(k) { Entry::Occupied(_) => Err(..), .. }`
        if m.arms
            .iter()
            .any(|a| self.occupied(&a.pat) && expr_rejects(&a.body))
        {
            let mut r = self.entry_check(&m.expr);
            // `Entry::Occupied(mut e) if self.allow_shadowing => e.insert(v)`
            // before the rejecting arm: the guard switches the rejection off.
            if let Some(r) = &mut r {
                let switches = (m.arms.iter())
                    .take_while(|a| !(self.occupied(&a.pat) && expr_rejects(&a.body)))
                    .filter_map(|a| match &a.pat {
                        Pat::Guard(g) if occupied_name(&g.pat).is_some() => {
                            Some(strip_parens(&g.guard))
                        }
                        _ => None,
                    });
                for guard in switches {
                    r.switch = r.switch.clone().or_else(|| self_field(guard));
                    r.switch_param = r.switch_param.or_else(|| match guard {
                        Expr::Path(p) => match self.from(p.path.get_ident()?)?.as_slice() {
                            [i] => Some(*i),
                            _ => None,
                        },
                        _ => None,
                    });
                }
            }
            self.reject(r);
        }
        let looked_up = self.flow(&m.expr);
        self.lookups.push(looked_up);
        visit::visit_expr_match(self, m);
        self.lookups.pop();
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        // `assert!(!self.map.contains_key(&k))`, `ensure!(!.., ..)`: only a
        // macro naming what a summary records is parsed (`format!`, `vec!`
        // and the like are most and hold nothing).
        if !self
            .learning
            .any_in(self.lines.range(mac.delimiter.span().join()))
        {
            return;
        }
        let name = path_last_of(&mac.path);
        let Some(args) = parse_args(&mac.tokens) else {
            return;
        };
        if matches!(name.as_str(), "assert" | "ensure")
            && let Some(Expr::Unary(u)) = args.first().map(strip_parens)
            && matches!(u.op, syn::UnOp::Not(_))
        {
            let r = self.rejection_check(&u.expr);
            self.reject(r);
        }
        args.iter().for_each(|a| self.visit_expr(a));
    }

    fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
        use syn::BinOp::*;
        if matches!(
            b.op,
            AddAssign(_) | SubAssign(_) | MulAssign(_) | BitOrAssign(_) | BitAndAssign(_)
        ) {
            self.signs.merges = true;
        }
        visit::visit_expr_binary(self, b);
    }

    fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
        if let Some(field) = self_field(&a.left)
            && self.vocab.has(Names::SwitchFields, &field)
        {
            self.sets_fields.push(field);
        }
        // `entry.key = next_id();` on a local: the field holds that value
        // from here on (probe-rs's `create_variable` makes its own key).
        if let Some(field) = local_field(&a.left) {
            let from = self.flow(&a.right);
            self.flows.push((field, from));
        }
        visit::visit_expr_assign(self, a);
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        self.note_called(m.method.to_string(), CallVia::Method);
        let on_self = matches!(strip_parens(&m.receiver), Expr::Path(p) if p.path.is_ident("self"));
        let on_self_field =
            !on_self && super::registry_root(&m.receiver).as_deref() == Some("self");
        let receiver = self.receiver_param(&m.receiver);
        // The parameter itself, not a local made from it (`let mut linker =
        // Linker::new(engine)` is a registry of its own).
        let whole = match strip_parens(&m.receiver) {
            Expr::Unary(u) => self.names_param(strip_parens(&u.expr)),
            other => self.names_param(other),
        };
        let name = m.method.to_string();
        // `linker.allow_shadowing(true)` on the registry it is handed or
        // returns: what it registers there replaces.
        if whole
            && let Some(r) = receiver
            && self.vocab.has(Names::Switches, &name)
            && !matches!(m.args.first().map(strip_parens), Some(Expr::Lit(syn::ExprLit { lit: syn::Lit::Bool(b), .. })) if !b.value)
        {
            self.switched.push(r);
        }
        match name.as_str() {
            "push" | "push_back" | "push_front" | "extend" | "append" => self.signs.pushes = true,
            "and_modify" => self.signs.merges = true,
            "or_insert" | "or_insert_with" | "or_default" => self.signs.or_insert = true,
            _ => {}
        }
        // `map.insert(name, f)` replaces; `set.insert(name)` keeps the
        // first; `flags.insert(Flags::USE)`, of no parameter, updates an
        // entry (bit flags). `self.insert(k, f)` is a method of the type,
        // no collection's: its own body tells.
        if name == "insert" && !on_self {
            match m.args.first().map(|k| self.flow(k).is_empty()) {
                Some(false) if m.args.len() == 2 => self.signs.replaces = true,
                Some(false) => self.signs.or_insert = true,
                Some(true) => self.signs.merges = true,
                None => {}
            }
        }
        if name == "insert" {
            self.inserts
                .push(compact(self.lines, self.text, &*m.receiver));
        }
        // `self.inner.insert(..)`, `(*self.inner).insert(..)`: the field
        // whose declared type has the method.
        let self_field = match crate::analysis::values::strip_borrows(&m.receiver) {
            Expr::Field(f) if matches!(strip_parens(&f.base), Expr::Path(p) if p.path.is_ident("self")) => {
                match &f.member {
                    syn::Member::Named(n) => Some(n.to_string()),
                    syn::Member::Unnamed(_) => None,
                }
            }
            _ => None,
        };
        let via = (CallVia::Method, on_self, on_self_field);
        let receiver = (receiver, receiver.is_some() && whole);
        self.record_call(name, via, self_field, receiver, &m.args);
        visit::visit_expr_method_call(self, m);
    }

    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        if let Expr::Path(p) = &*c.func
            && let Some(last) = p.path.segments.last()
        {
            let segments = &p.path.segments;
            let typed = segments.len() >= 2
                && (segments[segments.len() - 2].ident.to_string())
                    .starts_with(|c: char| c.is_ascii_uppercase());
            let via = if typed { CallVia::Typed } else { CallVia::Free };
            self.note_called(last.ident.to_string(), via);
            let how = (via, false, false);
            self.record_call(last.ident.to_string(), how, None, (None, false), &c.args);
        }
        visit::visit_expr_call(self, c);
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {}

    /// A closure's own facts are not the function's; its calls are listed
    /// ([`FnSummary::called`]): a rejection may hide behind one
    /// (`self.inner.with(|r| r.try_insert(k))`).
    fn visit_expr_closure(&mut self, c: &'ast syn::ExprClosure) {
        struct Calls<'s, 'a, 't>(&'s mut Summarizer<'a, 't>);
        impl<'ast> Visit<'ast> for Calls<'_, '_, '_> {
            fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
                self.0.note_called(m.method.to_string(), CallVia::Method);
                visit::visit_expr_method_call(self, m);
            }
            fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
                if let Expr::Path(p) = &*c.func
                    && let Some(last) = p.path.segments.last()
                {
                    self.0.note_called(last.ident.to_string(), CallVia::Free);
                }
                visit::visit_expr_call(self, c);
            }
            fn visit_item(&mut self, _: &'ast syn::Item) {}
        }
        Calls(self).visit_expr(&c.body);
    }
}

impl Summarizer<'_, '_> {
    /// The prefilter's test of a rejection word's surroundings
    /// ([`rejection_in_context`]): a rejection it would not
    /// parse the file for is none here either.
    fn in_context(&self, word: proc_macro2::Span) -> bool {
        let range = self.lines.range(word);
        rejection_in_context(self.text.as_bytes(), range.start, range.end)
    }

    /// An `Occupied` pattern where the prefilter sees a rejection.
    fn occupied(&self, p: &Pat) -> bool {
        occupied_name(p).is_some_and(|i| self.in_context(i.span()))
    }

    /// `self.map.entry(k)`: the check of an `Occupied` arm.
    fn entry_check(&self, e: &Expr) -> Option<Rejection> {
        let Expr::MethodCall(m) = strip_parens(e) else {
            return None;
        };
        if m.method != "entry" || m.args.len() != 1 {
            return None;
        }
        self.keyed_check(m, m, None)
    }

    /// `m` (`map.contains_key(k)`, `map.entry(k)`) as a rejection's check:
    /// its key made from parameters, its map reached through `self` or a
    /// parameter; `map`: the map as written, when the function must insert
    /// into it too.
    /// `shown`: the check as the message shows it (`m` and what is called
    /// on its result).
    fn keyed_check(
        &self,
        m: &syn::ExprMethodCall,
        shown: &syn::ExprMethodCall,
        map: Option<String>,
    ) -> Option<Rejection> {
        let key = self.flow(&m.args[0]);
        let receiver = self.receiver_param(&m.receiver);
        let on_self = super::registry_root(&m.receiver).as_deref() == Some("self");
        // `&var.name`, `var.name.clone()`: a field of the one parameter.
        let key_field =
            match crate::analysis::values::strip_borrows(crate::analysis::values::peel(&m.args[0]))
            {
                Expr::Field(f) if key.len() == 1 && self.names_param(strip_parens(&f.base)) => {
                    match &f.member {
                        syn::Member::Named(n) => Some(n.to_string()),
                        syn::Member::Unnamed(_) => None,
                    }
                }
                _ => None,
            };
        (!key.is_empty() && (on_self || receiver.is_some())).then(|| Rejection {
            key,
            receiver,
            switch: None,
            switch_param: None,
            check: short(self.lines, self.text, shown),
            line: shown.method.span().start().line as u32,
            map,
            key_field,
        })
    }
}

/// `!self.allow_overwrite`: the field whose truth skips the check.
fn switch_field(e: &Expr) -> Option<String> {
    let Expr::Unary(u) = strip_parens(e) else {
        return None;
    };
    match u.op {
        syn::UnOp::Not(_) => self_field(strip_parens(&u.expr)),
        _ => None,
    }
}

/// The name of `Occupied(_)`, `Entry::Occupied(e)`,
/// `hash_map::Entry::Occupied { .. }`.
fn occupied_name(p: &Pat) -> Option<&syn::Ident> {
    let path = match p {
        Pat::TupleStruct(t) => &t.path,
        Pat::Struct(s) => &s.path,
        Pat::Path(p) => &p.path,
        _ => return None,
    };
    path.segments
        .last()
        .map(|s| &s.ident)
        .filter(|i| *i == "Occupied")
}

/// A block that fails: it returns an `Err`, ends in one, bails or panics.
fn rejects(b: &syn::Block) -> bool {
    b.stmts.iter().any(|s| match s {
        syn::Stmt::Expr(e, _) => expr_rejects(e),
        syn::Stmt::Macro(m) => failing_macro(&m.mac.path),
        _ => false,
    })
}

fn expr_rejects(e: &Expr) -> bool {
    match strip_parens(e) {
        Expr::Return(r) => r.expr.as_deref().is_some_and(expr_rejects),
        Expr::Call(c) => path_last(&c.func).as_deref() == Some("Err"),
        Expr::Macro(m) => failing_macro(&m.mac.path),
        Expr::Block(b) => rejects(&b.block),
        _ => false,
    }
}

fn failing_macro(path: &syn::Path) -> bool {
    matches!(
        path_last_of(path).as_str(),
        "bail" | "panic" | "unreachable"
    )
}

fn path_last_of(path: &syn::Path) -> String {
    path.segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default()
}

/// An expression as written, whitespace removed: a map told apart from another.
fn compact<T: syn::spanned::Spanned + ?Sized>(lines: &LineTable, text: &str, e: &T) -> String {
    let range = lines.range(e.span());
    (text.get(range).unwrap_or("").chars())
        .filter(|c| !c.is_whitespace())
        .collect()
}

/// A call as written, on one line, for messages.
fn short(lines: &LineTable, text: &str, m: &syn::ExprMethodCall) -> String {
    let range = lines.range(syn::spanned::Spanned::span(m));
    let text: String = text
        .get(range)
        .unwrap_or("")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    match text.chars().count() > 60 {
        true => format!("{}...", text.chars().take(57).collect::<String>()),
        false => text,
    }
}

/// The local a function returns on every path: its body's last expression
/// and each `return` (outside closures) name it, as is or in `Ok(..)` or
/// `Some(..)`, and the function declares a result.
fn returned_local(sig: &syn::Signature, body: &syn::Block) -> Option<String> {
    if matches!(sig.output, syn::ReturnType::Default) {
        return None;
    }
    fn local(e: &Expr) -> Option<String> {
        match strip_parens(e) {
            Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
            Expr::Call(c) if c.args.len() == 1 => match &*c.func {
                Expr::Path(f) if f.path.is_ident("Ok") || f.path.is_ident("Some") => {
                    local(&c.args[0])
                }
                _ => None,
            },
            _ => None,
        }
    }
    struct Returns {
        names: Vec<Option<String>>,
    }
    impl<'ast> Visit<'ast> for Returns {
        fn visit_expr_return(&mut self, r: &'ast syn::ExprReturn) {
            self.names.push(r.expr.as_deref().and_then(local));
        }
        fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let Some(syn::Stmt::Expr(tail, None)) = body.stmts.last() else {
        return None;
    };
    let name = local(tail)?;
    if name == "self" {
        return None;
    }
    let mut returns = Returns { names: Vec::new() };
    returns.visit_block(body);
    (returns.names.iter())
        .all(|n| n.as_deref() == Some(name.as_str()))
        .then_some(name)
}

/// `local.field` (not `self.field`), as "local.field".
fn local_field(e: &Expr) -> Option<String> {
    let Expr::Field(f) = strip_parens(e) else {
        return None;
    };
    let (Expr::Path(p), syn::Member::Named(m)) = (strip_parens(&f.base), &f.member) else {
        return None;
    };
    let base = p.path.get_ident().filter(|i| *i != "self")?;
    Some(format!("{base}.{m}"))
}
