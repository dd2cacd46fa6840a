//! Normalizers learned from what a function does with a string parameter
//! (issue 28: raw or canonical is learned from the code, not from names),
//! and the locals a function compares as written and also hands to a call.
//!
//! A function normalizes its parameter when it folds its case before
//! comparing it (`s.to_lowercase()`, `eq_ignore_ascii_case`), or takes
//! several spellings for one outcome (`"cuda" | "CUDA" | "gpu" =>`, `let s =
//! if s == "default" { "cpu" } else { s };`). At least one spelling it
//! compares with is a canonical platform name in some case: the prefilter
//! keeps such a body, and the lints are about platforms.
//!
//! A local that a function compares with a platform name as written, and
//! hands to a call in the same function ([`Handoff`]), is raw when that
//! call is a normalizer: the comparison misses the other spellings the
//! normalizer takes. The crate pass decides, once every normalizer of the
//! crate (and of the other packages checked with it) is known.

use std::collections::{HashMap, HashSet};

use syn::visit::{self, Visit};
use syn::{Expr, Pat};

use super::Cx;
use crate::analysis::values::path_last;
use crate::config::Vocabulary;
use crate::config::platform::{LiteralKind, classify_literal};
use crate::model::facts::{
    Comparison, ComparisonKind, FieldKey, HandedCall, Handoff, NormalizerFn, Operand, Side,
    Spellings, StrExpr, ValueCall,
};

/// What a function does with the parameter it normalizes.
pub(super) struct Shape {
    pub param: usize,
    pub folds_case: bool,
    pub upper: bool,
    pub replaced: Vec<(String, String)>,
    pub classes: Vec<Spellings>,
}

/// The first string parameter `sig`'s body normalizes, if any.
pub(super) fn read(sig: &syn::Signature, block: &syn::Block, vocab: &Vocabulary) -> Option<Shape> {
    let typed = (sig.inputs.iter()).filter_map(|a| match a {
        syn::FnArg::Typed(t) => Some(t),
        syn::FnArg::Receiver(_) => None,
    });
    // Each string parameter reads the body once: a few at most, so that a
    // function of a thousand never reads it a thousand times.
    let mut read = 0;
    let returns_string = match &sig.output {
        syn::ReturnType::Type(_, ty) => super::platform_fns::is_string(ty),
        syn::ReturnType::Default => false,
    };
    for (param, t) in typed.enumerate() {
        let Pat::Ident(id) = &*t.pat else {
            continue;
        };
        if !super::platform_fns::is_string(&t.ty) || read == MAX_PARAMS {
            continue;
        }
        read += 1;
        let mut reader = Reader {
            derived: HashSet::from([id.ident.to_string()]),
            folded: HashSet::new(),
            folds_case: false,
            upper: std::cell::Cell::new(false),
            replaced: std::cell::RefCell::new(Vec::new()),
            classes: Vec::new(),
            compared: Vec::new(),
        };
        reader.visit_block(block);
        // `raw.trim().to_ascii_lowercase().replace('-', "_")` as what it
        // returns: it folds the case of what it gives.
        if returns_string
            && returned(block)
                .iter()
                .any(|e| reader.subject(e) == Some(true))
        {
            reader.folds_case = true;
        }
        if let Some(shape) = reader.shape(vocab, param, returns_string) {
            return Some(shape);
        }
    }
    None
}

/// The string parameters of one function read ([`read`]).
const MAX_PARAMS: usize = 4;

/// The functions one local is kept as handed to ([`Cx::hand_offs`]).
const MAX_CALLEES: usize = 8;

/// What a body does with one parameter and the locals made from it.
struct Reader {
    /// The parameter and the locals holding its value (shadowings too).
    derived: HashSet<String>,
    /// Those of them whose case is folded.
    folded: HashSet<String>,
    /// A comparison of a folded value, or one ignoring case.
    folds_case: bool,
    /// The case folded is upper (`to_uppercase`).
    upper: std::cell::Cell<bool>,
    /// What a `replace(from, to)` on the value respells: `("-", "_")`.
    replaced: std::cell::RefCell<Vec<(String, String)>>,
    /// Spellings compared for one outcome: one `if` condition's `||`, one
    /// `match` arm's patterns, with the literal the branch gives.
    classes: Vec<Vec<String>>,
    /// Every literal the value is compared with.
    compared: Vec<String>,
}

impl Reader {
    /// `a == b`: the value and a literal, either way round.
    fn equals(&mut self, a: &Expr, b: &Expr, out: &mut Vec<String>) -> Option<()> {
        let (folded, lit) = match (self.subject(a), self.subject(b)) {
            (Some(f), _) => (f, literal(b)?),
            (_, Some(f)) => (f, literal(a)?),
            _ => return None,
        };
        self.folds_case |= folded;
        out.push(lit);
        Some(())
    }

    /// `value.eq("cpu")`, `value.eq_ignore_ascii_case("cpu")`.
    fn method_equals(&mut self, m: &syn::ExprMethodCall, out: &mut Vec<String>) -> Option<()> {
        if m.args.len() != 1 {
            return None;
        }
        let folded = self.subject(&m.receiver)?;
        let lit = literal(&m.args[0])?;
        match m.method.to_string().as_str() {
            "eq" => self.folds_case |= folded,
            "eq_ignore_ascii_case" => self.folds_case = true,
            _ => return None,
        }
        out.push(lit);
        Some(())
    }

    /// Whether `e` is the parameter's value, and then whether its case is
    /// folded.
    fn subject(&self, e: &Expr) -> Option<bool> {
        // What keeps the value as it is ([`kept`]); then trimming keeps
        // its case, and a case change folds it.
        match kept(e) {
            Expr::Path(p) => {
                let id = p.path.get_ident()?.to_string();
                (self.derived.contains(&id)).then(|| self.folded.contains(&id))
            }
            // `.replace('-', "_")` keeps the case as it is.
            Expr::MethodCall(m)
                if matches!(m.method.to_string().as_str(), "replace" | "replacen")
                    && m.args.iter().all(|a| matches!(a, Expr::Lit(_))) =>
            {
                let inner = self.subject(&m.receiver)?;
                let text = |e: &Expr| match e {
                    Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    }) => Some(s.value()),
                    Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Char(c),
                        ..
                    }) => Some(c.value().to_string()),
                    _ => None,
                };
                if let (Some(from), Some(to)) = (text(&m.args[0]), m.args.get(1).and_then(text))
                    && !from.is_empty()
                    && self.replaced.borrow().len() < MAX_PARAMS
                {
                    self.replaced.borrow_mut().push((from, to));
                }
                Some(inner)
            }
            Expr::MethodCall(m) if m.args.is_empty() => {
                let inner = self.subject(&m.receiver)?;
                match m.method.to_string().as_str() {
                    "trim" | "trim_start" | "trim_end" | "into_owned" | "to_string"
                    | "to_owned" | "into" => Some(inner),
                    "to_lowercase" | "to_ascii_lowercase" => {
                        self.upper.set(false);
                        Some(true)
                    }
                    "to_uppercase" | "to_ascii_uppercase" => {
                        self.upper.set(true);
                        Some(true)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The literals one condition compares the value with, all joined by
    /// `||`; `None` when a part is anything else.
    fn condition(&mut self, e: &Expr, out: &mut Vec<String>) -> Option<()> {
        match e {
            Expr::Paren(p) => self.condition(&p.expr, out),
            Expr::Binary(b) if matches!(b.op, syn::BinOp::Or(_)) => {
                self.condition(&b.left, out)?;
                self.condition(&b.right, out)
            }
            Expr::Binary(b) if matches!(b.op, syn::BinOp::Eq(_)) => {
                self.equals(&b.left, &b.right, out)
            }
            Expr::MethodCall(m) => self.method_equals(m, out),
            _ => None,
        }
    }
}

/// A string literal, also made a `String` (`"cpu".to_string()`,
/// `String::from("cpu")`, `"cpu".into()`).
fn literal(e: &Expr) -> Option<String> {
    match kept(e) {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(s.value()),
        Expr::MethodCall(m)
            if m.args.is_empty()
                && matches!(
                    m.method.to_string().as_str(),
                    "to_string" | "to_owned" | "into"
                ) =>
        {
            literal(&m.receiver)
        }
        Expr::Call(c) if c.args.len() == 1 && path_last(&c.func).is_some_and(|l| l == "from") => {
            literal(&c.args[0])
        }
        _ => None,
    }
}

/// What a body gives: its tail and each `return`'s value (not those of
/// closures or nested items).
fn returned(block: &syn::Block) -> Vec<&Expr> {
    struct Returns<'a>(Vec<&'a Expr>);
    impl<'a> Visit<'a> for Returns<'a> {
        fn visit_expr_return(&mut self, r: &'a syn::ExprReturn) {
            if let Some(e) = &r.expr {
                self.0.push(e);
            }
            visit::visit_expr_return(self, r);
        }
        fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
        fn visit_item(&mut self, _: &'a syn::Item) {}
    }
    let mut out = Returns(block_tail(block).into_iter().collect());
    out.visit_block(block);
    out.0
}

/// The value a block or branch ends with.
fn tail(e: &Expr) -> Option<&Expr> {
    match e {
        Expr::Block(b) => match b.block.stmts.last()? {
            syn::Stmt::Expr(e, None) => tail(e),
            _ => None,
        },
        other => Some(other),
    }
}

fn block_tail(b: &syn::Block) -> Option<&Expr> {
    match b.stmts.last()? {
        syn::Stmt::Expr(e, None) => tail(e),
        _ => None,
    }
}

/// The string literals of a pattern: `"a"`, `"a" | "b"`, `&"a"`.
fn pattern_literals(pat: &Pat, out: &mut Vec<String>) -> bool {
    match pat {
        Pat::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => {
            out.push(s.value());
            true
        }
        Pat::Or(o) => o.cases.iter().all(|c| pattern_literals(c, out)),
        Pat::Reference(r) => pattern_literals(&r.pat, out),
        Pat::Paren(p) => pattern_literals(&p.pat, out),
        _ => false,
    }
}

impl<'ast> Visit<'ast> for Reader {
    fn visit_local(&mut self, l: &'ast syn::Local) {
        visit::visit_local(self, l);
        let pat = match &l.pat {
            Pat::Type(t) => &*t.pat,
            other => other,
        };
        let Pat::Ident(id) = pat else {
            return;
        };
        let name = id.ident.to_string();
        let made = l.init.as_ref().and_then(|init| {
            let e = &*init.expr;
            self.subject(e).or_else(|| match e {
                // `let s = if s == "default" { "cpu" } else { s };`
                Expr::If(i) => {
                    let branches = [
                        block_tail(&i.then_branch),
                        i.else_branch.as_ref().and_then(|(_, e)| tail(e)),
                    ];
                    branches.into_iter().flatten().find_map(|b| self.subject(b))
                }
                Expr::Match(m) => m.arms.iter().find_map(|a| self.subject(tail(&a.body)?)),
                _ => None,
            })
        });
        match made {
            Some(folded) => {
                self.derived.insert(name.clone());
                match folded {
                    true => self.folded.insert(name),
                    false => self.folded.remove(&name),
                };
            }
            None => {
                self.derived.remove(&name);
                self.folded.remove(&name);
            }
        }
    }

    fn visit_expr_if(&mut self, i: &'ast syn::ExprIf) {
        let mut lits = Vec::new();
        if self.condition(&i.cond, &mut lits).is_some() {
            self.compared.extend(lits.iter().cloned());
            if let Some(given) = block_tail(&i.then_branch).and_then(literal) {
                lits.push(given);
            }
            self.classes.push(lits);
        }
        visit::visit_expr_if(self, i);
    }

    fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
        if matches!(b.op, syn::BinOp::Eq(_) | syn::BinOp::Ne(_)) {
            let mut lits = Vec::new();
            if self.equals(&b.left, &b.right, &mut lits).is_some() {
                self.compared.extend(lits);
            }
        }
        visit::visit_expr_binary(self, b);
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        let mut lits = Vec::new();
        if self.method_equals(m, &mut lits).is_some() {
            self.compared.extend(lits);
        }
        visit::visit_expr_method_call(self, m);
    }

    fn visit_expr_match(&mut self, m: &'ast syn::ExprMatch) {
        if let Some(folded) = self.subject(&m.expr) {
            // A guarded arm (`Pat::Guard`) has no literals of its own here.
            for arm in &m.arms {
                let mut lits = Vec::new();
                if !pattern_literals(&arm.pat, &mut lits) || lits.is_empty() {
                    continue;
                }
                self.folds_case |= folded;
                self.compared.extend(lits.iter().cloned());
                if let Some(given) = tail(&arm.body).and_then(literal) {
                    lits.push(given);
                }
                self.classes.push(lits);
            }
        }
        visit::visit_expr_match(self, m);
    }

    // A nested function or closure's own parameters are no concern here;
    // items inside the body are other functions.
    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

impl Reader {
    fn shape(self, vocab: &Vocabulary, param: usize, returns_string: bool) -> Option<Shape> {
        let canonical = |v: &str| vocab.canonical.iter().any(|c| c.eq_ignore_ascii_case(v));
        // A spelling compared or given for one: the body holds a literal
        // naming a platform, which the prefilter keeps. Without one, a
        // function giving a string it folded the case of normalizes any
        // name (`canonical_os`, `normalize_backend`): the prefilter keeps
        // a body folding a case in a function returning a string.
        let literals = self.compared.iter().chain(self.classes.iter().flatten());
        let names_platform = literals.clone().any(|v| canonical(v));
        if !(names_platform || returns_string && self.folds_case) {
            return None;
        }
        let mut classes = Vec::new();
        for mut spelled in self.classes {
            spelled.sort();
            spelled.dedup();
            // Two platforms taken alike are a group (`"cuda" | "rocm"`), not
            // spellings of one.
            let mut platforms: Vec<String> = (spelled.iter())
                .filter(|v| canonical(v))
                .map(|v| v.to_ascii_lowercase())
                .collect();
            platforms.dedup();
            if platforms.len() > 1 {
                continue;
            }
            // An alias of the configuration stands for its platforms.
            let mut stands_for = Vec::new();
            for v in &spelled {
                if let LiteralKind::Alias { targets, .. } = classify_literal(vocab, v) {
                    stands_for.extend(targets.iter().filter(|t| !spelled.contains(t)).cloned());
                }
            }
            stands_for.sort();
            stands_for.dedup();
            if spelled.len() + stands_for.len() >= 2 {
                classes.push(Spellings {
                    spelled,
                    stands_for,
                });
            }
        }
        (self.folds_case || !classes.is_empty()).then_some(Shape {
            param,
            folds_case: self.folds_case,
            upper: self.upper.get(),
            replaced: self.replaced.take(),
            classes,
        })
    }
}

/// A local compared as written with a platform name, kept until the
/// function ends: [`Cx::hand_offs`] pairs it with the calls it is handed to.
#[derive(Debug, Clone)]
pub(super) struct Compared {
    name: String,
    id: u32,
    comparison: Comparison,
    subject: usize,
}

/// A local handed to a call, as an argument (or `parse`'s receiver).
#[derive(Debug, Clone)]
pub(super) struct Handed {
    name: String,
    id: u32,
    call: HandedCall,
}

/// What a compared or handed value is: a local (a binding of the function
/// being walked), or a field of a value of a named type, which other
/// functions reach too.
enum Held {
    Local(String, u32),
    Field(FieldKey),
}

/// A string literal.
fn is_literal(o: &Operand) -> bool {
    matches!(o, Operand::Str(StrExpr::Lit(_)))
}

/// An operand whose origin the walk does not know: anything else, or a
/// name that is no constant's (an unbound parameter).
pub(super) fn unknown(o: &Operand) -> bool {
    match o {
        Operand::Other => true,
        Operand::Str(StrExpr::Path { segments, .. }) => {
            segments.len() == 1 && !crate::analysis::values::names_a_constant(&segments[0])
        }
        _ => false,
    }
}

/// An expression behind borrows, derefs and the methods that keep a string
/// as it is: `name` in `&*name`, `name.as_str()`.
/// Not [`peel`]: a lowercased or trimmed value is compared otherwise.
fn kept(e: &Expr) -> &Expr {
    match e {
        Expr::Paren(p) => kept(&p.expr),
        Expr::Group(g) => kept(&g.expr),
        Expr::Reference(r) => kept(&r.expr),
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => kept(&u.expr),
        Expr::MethodCall(m)
            if m.args.is_empty()
                && matches!(
                    m.method.to_string().as_str(),
                    "as_str"
                        | "as_ref"
                        | "as_deref"
                        | "clone"
                        | "to_string"
                        | "to_owned"
                        | "borrow"
                ) =>
        {
            kept(&m.receiver)
        }
        other => other,
    }
}

impl Cx<'_> {
    /// What `e` holds, as [`Held`]: a local of unknown origin, or a field
    /// of `self` or of a local whose type the code writes.
    fn held(&self, e: &Expr) -> Option<Held> {
        let mut e = kept(e);
        let mut path = Vec::new();
        while let Expr::Field(f) = e {
            match &f.member {
                syn::Member::Named(n) => path.push(n.to_string()),
                syn::Member::Unnamed(i) => path.push(i.index.to_string()),
            }
            e = kept(&f.base);
        }
        let Expr::Path(p) = e else {
            return None;
        };
        let root = p.path.get_ident()?.to_string();
        if path.is_empty() {
            let holds_unknown = self.lookup(&root).is_none_or(|b| unknown(&b.value));
            return holds_unknown.then(|| Held::Local(root.clone(), self.binding_id(&root)));
        }
        path.reverse();
        let ty = match root.as_str() {
            "self" => self.self_type.clone()?,
            local => self.lookup(local)?.ty.clone()?,
        };
        Some(Held::Field(FieldKey {
            ty: crate::analysis::last_segment(&ty).to_string(),
            path: path.join("."),
        }))
    }

    /// A comparison about to be recorded (or dropped): a side that is a
    /// local of unknown origin or a field, compared with a literal naming a
    /// canonical platform in some case, is kept: a local for
    /// [`Cx::hand_offs`], a field for the crate pass.
    pub(super) fn note_compared(
        &mut self,
        how: ComparisonKind,
        exprs: &[&Expr],
        operands: &[Operand],
    ) {
        // A field compared with any name: a normalizer of any names
        // (`canonical_os`) may be handed it elsewhere. A local, with a
        // platform's only: it is paired in its own function.
        let platform = operands.iter().any(|o| self.names_platform(o));
        if !platform && !operands.iter().any(is_literal) {
            return;
        }
        let subjects: Vec<(usize, Held)> = (exprs.iter().zip(operands).enumerate())
            .filter(|(_, (_, o))| !is_literal(o) && !matches!(o, Operand::Raw | Operand::Canonical))
            .filter_map(|(i, (e, _))| Some((i, self.held(e)?)))
            .filter(|(_, held)| platform || matches!(held, Held::Field(_)))
            .collect();
        if subjects.is_empty() {
            return;
        }
        let sides: Vec<Side> = (exprs.iter().zip(operands))
            .map(|(e, o)| self.side(e, o.clone()))
            .collect();
        self.keep_compared(how, sides, subjects);
    }

    /// `match x { "cuda" => .. }`, `matches!(x, "cuda" | "gpu")`:
    /// [`Cx::note_compared`], `others` the patterns.
    pub(super) fn note_scrutinee(
        &mut self,
        how: ComparisonKind,
        scrutinee: &Expr,
        others: Vec<Side>,
    ) {
        let platform = others.iter().any(|s| self.names_platform(&s.operand));
        if !platform && !others.iter().any(|s| is_literal(&s.operand)) {
            return;
        }
        let Some(held) = self.held(scrutinee) else {
            return;
        };
        if !platform && !matches!(held, Held::Field(_)) {
            return;
        }
        let operand = self.operand(scrutinee);
        let mut sides = vec![self.side(scrutinee, operand)];
        sides.extend(others);
        self.keep_compared(how, sides, vec![(0, held)]);
    }

    /// Which binding `name` is here: 0 for one the walk does not bind (a
    /// parameter of a type it does not follow, a static), the same thing
    /// all through the function.
    fn binding_id(&self, name: &str) -> u32 {
        self.lookup(name).map_or(0, |b| b.id)
    }

    /// A literal naming a canonical platform in some case.
    fn names_platform(&self, o: &Operand) -> bool {
        matches!(o, Operand::Str(StrExpr::Lit(v))
            if self.vocab.canonical.iter().any(|c| c.eq_ignore_ascii_case(v)))
    }

    fn keep_compared(
        &mut self,
        how: ComparisonKind,
        sides: Vec<Side>,
        subjects: Vec<(usize, Held)>,
    ) {
        let comparison = Comparison {
            sides,
            how,
            scope: self.scope,
            in_test: self.ctx.test_scope.is_some() || self.in_test_code > 0,
        };
        for (subject, held) in subjects {
            match held {
                Held::Local(name, id) => self.frame.compared.push(Compared {
                    name,
                    id,
                    comparison: comparison.clone(),
                    subject,
                }),
                Held::Field(key) => {
                    (self.facts.field_uses.compared).push((key, comparison.clone(), subject));
                }
            }
        }
    }

    /// `f(.., x, ..)`, `T::from_str(x)`: each argument is handed to the
    /// function the path names.
    pub(super) fn note_call(&mut self, c: &syn::ExprCall) {
        let Some(callee) = self.path_call(&c.func) else {
            return;
        };
        for (arg, e) in c.args.iter().enumerate() {
            self.note_handed(e, &callee, arg, c);
        }
    }

    /// `self.normalize(x)` (a method of the impl being walked), a method
    /// of a local of a written type, and `x.parse::<Device>()`
    /// (`Device::from_str`).
    pub(super) fn note_method_call(&mut self, m: &syn::ExprMethodCall) {
        let name = m.method.to_string();
        if name == "parse"
            && m.args.is_empty()
            && let Some(turbofish) = &m.turbofish
            && let Some(syn::GenericArgument::Type(syn::Type::Path(t))) = turbofish.args.first()
            && let Some(ty) = t.path.segments.last()
        {
            let callee = ValueCall {
                ty: Some(ty.ident.to_string()),
                name: "from_str".to_string(),
                ..ValueCall::default()
            };
            self.note_handed(&m.receiver, &callee, 0, m);
            return;
        }
        // `self.normalize(x)`, or `names.resolve(x)` on a local whose
        // type the code writes (`names: &Names`).
        let callee = match kept(&m.receiver) {
            Expr::Path(p) if p.path.is_ident("self") => self.call_of(&name, true),
            Expr::Path(p) => (p.path.get_ident())
                .and_then(|local| self.lookup(&local.to_string())?.ty.clone())
                .map(|ty| ValueCall {
                    ty: Some(crate::analysis::last_segment(&ty).to_string()),
                    name: name.clone(),
                    ..ValueCall::default()
                }),
            _ => None,
        };
        if let Some(callee) = callee {
            for (arg, e) in m.args.iter().enumerate() {
                self.note_handed(e, &callee, arg, m);
            }
        }
    }

    fn note_handed<T: syn::spanned::Spanned>(
        &mut self,
        e: &Expr,
        callee: &ValueCall,
        arg: usize,
        call: &T,
    ) {
        let Some(held) = self.held(e) else {
            return;
        };
        let span = self.span(call);
        let call = HandedCall {
            callee: callee.clone(),
            arg,
            text: self.short_text_at(span),
            span,
        };
        match held {
            Held::Local(name, id) => self.frame.handed.push(Handed { name, id, call }),
            Held::Field(key) => self.facts.field_uses.handed.push((key, call)),
        }
    }

    /// `T { field: call(..), .. }`, or a local holding a call's result:
    /// the field holds what that call made, normalized if it normalizes.
    pub(super) fn note_built(&mut self, s: &syn::ExprStruct) {
        let Some(last) = s.path.segments.last() else {
            return;
        };
        let ty = match last.ident.to_string() {
            own if own == "Self" => match &self.self_type {
                Some(t) => crate::analysis::last_segment(t).to_string(),
                None => return,
            },
            ty => ty,
        };
        for field in &s.fields {
            let syn::Member::Named(name) = &field.member else {
                continue;
            };
            let made = match kept(&field.expr) {
                Expr::Call(c) => self.path_call(&c.func),
                Expr::Path(p) => (p.path.get_ident()).and_then(|local| {
                    match &self.lookup(&local.to_string())?.value {
                        Operand::Call(c) => Some(c.clone()),
                        _ => None,
                    }
                }),
                Expr::MethodCall(m) if matches!(kept(&m.receiver), Expr::Path(p) if p.path.is_ident("self")) => {
                    self.call_of(&m.method.to_string(), true)
                }
                _ => None,
            };
            if let Some(call) = made {
                let key = FieldKey {
                    ty: ty.clone(),
                    path: name.to_string(),
                };
                self.facts.field_uses.built.push((key, call));
            }
        }
    }

    /// `x.field = ..`: the field may hold what a normalizer made.
    pub(super) fn note_assigned(&mut self, place: &Expr) {
        if let Some(Held::Field(key)) = self.held(place) {
            self.facts.field_uses.assigned.push(key);
        }
    }

    /// The function being walked ends: each local it compared as written
    /// and handed to a call is a [`Handoff`] of the file, which the crate
    /// pass decides.
    pub(super) fn hand_offs(&mut self) {
        let compared = std::mem::take(&mut self.frame.compared);
        let handed = std::mem::take(&mut self.frame.handed);
        if compared.is_empty() {
            return;
        }
        // Each binding's calls, each callee once, a few at most: a local
        // compared and handed to many functions makes facts of their sum.
        let mut calls: HashMap<(&str, u32), Vec<&Handed>> = HashMap::new();
        for h in &handed {
            let known = calls.entry((h.name.as_str(), h.id)).or_default();
            if known.len() < MAX_CALLEES && !known.iter().any(|k| k.call.callee == h.call.callee) {
                known.push(h);
            }
        }
        for c in compared {
            for h in calls.get(&(c.name.as_str(), c.id)).into_iter().flatten() {
                self.facts.handoffs.push(Handoff {
                    comparison: c.comparison.clone(),
                    subject: c.subject,
                    call: h.call.clone(),
                });
            }
        }
    }

    /// Record the function `call` (`sig`, `block`) when it normalizes a
    /// string parameter ([`read`]).
    pub(super) fn normalizer(
        &mut self,
        sig: &syn::Signature,
        block: &syn::Block,
        call: Option<&ValueCall>,
    ) {
        let Some(call) = call else {
            return;
        };
        let Some(shape) = read(sig, block, self.vocab) else {
            return;
        };
        self.facts.normalizers.push(NormalizerFn {
            call: call.clone(),
            param: shape.param,
            folds_case: shape.folds_case,
            upper: shape.upper,
            replaced: shape.replaced,
            classes: shape.classes,
            span: self.span(&sig.ident),
            line: sig.ident.span().start().line as u32,
        });
    }
}
