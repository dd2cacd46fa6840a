//! What expressions hold (raw or canonical platform values) and the
//! comparisons between them.

use super::value_sets::strip_borrows;
use super::*;
use crate::model::facts::{Normalized, NormalizedComparison, PatternPlace};

/// A raw side starts from a platform source (a method, function, field or
/// pattern field), a canonical one from a canonicalizer called or from the
/// field `platforms`; a literal side from a string literal.
pub(super) const COLLECTOR: Collector = Collector {
    name: "comparisons",
    starts: &[
        Start {
            names: Names::Sources,
            at: NameUse::Anywhere,
            alone: true,
        },
        Start {
            names: Names::Canonicalizers,
            at: NameUse::Callee,
            alone: true,
        },
        Start {
            names: Names::PlatformsField,
            at: NameUse::Anywhere,
            alone: true,
        },
        // A normalizer's output compared with what it cannot give
        // (`values::normalized`).
        Start {
            names: Names::Normalizers,
            at: NameUse::StrMethod,
            alone: true,
        },
    ],
    reads: &[],
};

/// The comparisons collector's state.
#[derive(Default)]
pub(super) struct Comparisons {
    /// Comparisons with an array of the file (`GPU_PLATFORMS.contains(&p)`),
    /// its names added when the whole file is walked.
    pending_lists: Vec<(Comparison, String)>,
}

impl<'t> Cx<'t> {
    /// What `e` is, as far as platforms go: a call of a function of the
    /// package is known crate-wide ([`Operand::Call`]).
    pub(super) fn operand(&self, e: &Expr) -> Operand {
        match self.operand_here(e) {
            here @ (Operand::Other | Operand::Str(StrExpr::Path { .. })) => {
                self.value_call(e).map_or(here, Operand::Call)
            }
            here => here,
        }
    }

    /// What `e` is, as far as this file tells.
    fn operand_here(&self, e: &Expr) -> Operand {
        let inner = peel(e);
        // A path naming a local binding: its value. A call's result
        // passed to `.to_string()` may be no string but a value its
        // `Display` writes (`let b = active_backend(); b.to_string()`):
        // the call then says, with the `to_string` it is passed to
        // ([`Cx::value_call`]).
        if let Expr::Path(p) = inner
            && let Some(ident) = p.path.get_ident()
            && let Some(binding) = self.lookup(&ident.to_string())
        {
            if matches!(binding.value, Operand::Call(_)) && passes_to_string(e) {
                return Operand::Other;
            }
            return binding.value.clone();
        }
        match inner {
            Expr::MethodCall(m)
                if m.args.is_empty()
                    && self
                        .comparison_names()
                        .has(Names::Sources, &m.method.to_string()) =>
            {
                Operand::Raw
            }
            Expr::MethodCall(m)
                if self
                    .comparison_names()
                    .has(Names::Canonicalizers, &m.method.to_string()) =>
            {
                Operand::Canonical
            }
            // Uppercasing is no canonicalization either; a canonical value
            // uppercased is no longer one (`"CUDA"` is right for it).
            Expr::MethodCall(m)
                if m.method == "to_uppercase" || m.method == "to_ascii_uppercase" =>
            {
                match self.operand(&m.receiver) {
                    Operand::Raw => Operand::Raw,
                    _ => Operand::Other,
                }
            }
            Expr::MethodCall(m)
                if matches!(
                    m.method.to_string().as_str(),
                    "first" | "last" | "get" | "next"
                ) && is_platforms_collection(&m.receiver) =>
            {
                Operand::Canonical
            }
            Expr::Call(c)
                if path_last(&c.func)
                    .is_some_and(|n| self.comparison_names().has(Names::Canonicalizers, &n)) =>
            {
                Operand::Canonical
            }
            Expr::Call(c)
                if c.args.is_empty()
                    && path_last(&c.func)
                        .is_some_and(|n| self.comparison_names().has(Names::Sources, &n)) =>
            {
                Operand::Raw
            }
            Expr::Field(_)
                if field_name(inner)
                    .is_some_and(|n| self.comparison_names().has(Names::Sources, &n)) =>
            {
                Operand::Raw
            }
            Expr::Index(i) if is_platforms_collection(&i.expr) => Operand::Canonical,
            _ => match str_expr(inner, self.scope) {
                Some(s) => Operand::Str(s),
                None => Operand::Other,
            },
        }
    }

    /// `e` as a side of a comparison: its text, and for a binding where its
    /// value came from. Only computed for comparisons that are kept.
    pub(super) fn side(&self, e: &Expr, operand: Operand) -> Side {
        // A call is shown as written (`kind.to_string()`, not `kind`),
        // borrows left out.
        let shown = strip_borrows(e);
        let call = matches!(operand, Operand::Call(_)) && !matches!(shown, Expr::Path(_));
        let (text, origin) = if call {
            (self.short_text(shown), None)
        } else if let Expr::Path(p) = peel(e)
            && let Some(ident) = p.path.get_ident()
            && let Some(binding) = self.lookup(&ident.to_string())
        {
            let origin = (!binding.origin.is_empty() && *ident != binding.origin)
                .then(|| binding.origin.clone());
            (ident.to_string(), origin)
        } else {
            (self.short_text(e), None)
        };
        Side {
            operand,
            span: self.span(if call { shown } else { e }),
            text,
            origin,
            pattern: PatternPlace::Alone,
        }
    }

    /// What a new binding initialised from `e` holds. A binding of a canonical
    /// literal is a canonical value; of any other string, nothing we track.
    pub(super) fn binding_value(&self, e: &Expr) -> Operand {
        match self.operand(e) {
            Operand::Str(StrExpr::Lit(s))
                if crate::config::platform::is_canonical(self.vocab, &s) =>
            {
                Operand::Canonical
            }
            Operand::Str(_) => Operand::Other,
            v => v,
        }
    }

    /// Bind the names of `pat` to what `value` holds where the shape allows it,
    /// and shadow every other name it binds.
    pub(super) fn bind_pat(&mut self, pat: &Pat, value: Operand, origin: &str) {
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
                    let is_platform = matches!(&field.member,
                        syn::Member::Named(n) if self.comparison_names().has(Names::Sources, &n.to_string()));
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

    pub(super) fn shadow_all(&mut self, pat: &Pat) {
        let mut names = Vec::new();
        pat_idents(pat, &mut names);
        for name in names {
            self.bind(name, Operand::Other, String::new());
        }
    }
}

impl<'t> Cx<'t> {
    /// What the std normalizers applied to `e` guarantee of it, and the
    /// call that did it as written (a local's: where it was set).
    pub(super) fn normalized_of(&self, e: &Expr) -> Option<(Normalized, String)> {
        let local = |name: &str| Some(self.lookup(name)?.normalized.as_ref()?.0.clone());
        let shape = crate::analysis::values::normalized(e, &local)?;
        let made_by = match peel(e) {
            Expr::Path(p) => (p.path.get_ident())
                .and_then(|i| Some(self.lookup(&i.to_string())?.normalized.as_ref()?.1.clone())),
            _ => None,
        };
        Some((
            shape,
            made_by.unwrap_or_else(|| self.short_text(strip_borrows(e))),
        ))
    }

    /// `subject` (a normalizer's output) compared as `how` with each of
    /// `others` that is a string: kept for the crate pass, which resolves
    /// constants. Inside a canonicalizer too: its comparisons are its job,
    /// but one with a spelling its own normalizing cannot give is still dead.
    pub(super) fn compare_normalized(
        &mut self,
        how: ComparisonKind,
        subject: &Expr,
        others: &[&Expr],
    ) {
        let Some(found) = self.normalized_of(subject) else {
            return;
        };
        let strings: Vec<_> = others.iter().filter_map(|e| {
            let s = str_expr(e, self.scope)?;
            // A local's name is no constant.
            let local = matches!(&s, StrExpr::Path { segments, .. } if segments.len() == 1 && self.lookup(&segments[0]).is_some());
            (!local).then(|| (s, syn::spanned::Spanned::span(*e)))
        }).collect();
        self.push_normalized(how, subject, found, strings);
    }

    /// [`Cx::compare_normalized`] with the strings given once `subject` is
    /// known to be normalized.
    pub(super) fn compare_normalized_with<I: IntoIterator<Item = (StrExpr, proc_macro2::Span)>>(
        &mut self,
        how: ComparisonKind,
        subject: &Expr,
        others: impl FnOnce() -> I,
    ) {
        if let Some(found) = self.normalized_of(subject) {
            self.push_normalized(how, subject, found, others());
        }
    }

    fn push_normalized(
        &mut self,
        how: ComparisonKind,
        subject: &Expr,
        (shape, made_by): (Normalized, String),
        others: impl IntoIterator<Item = (StrExpr, proc_macro2::Span)>,
    ) {
        let in_test = self.ctx.test_scope.is_some() || self.in_test_code > 0;
        let shown = strip_borrows(subject);
        for (value, at) in others {
            // A path is followed only when spelled as a constant: the fast
            // path looks for no other (`prefilter::normalized`).
            if let StrExpr::Path { segments, .. } = &value
                && !(segments.last()).is_some_and(|l| crate::analysis::values::names_a_constant(l))
            {
                continue;
            }
            let subject = Side {
                operand: Operand::Other,
                span: self.span(shown),
                text: self.short_text(shown),
                origin: None,
                pattern: PatternPlace::Alone,
            };
            let span = self.span_at(at);
            let other = Side {
                operand: Operand::Str(value),
                span,
                text: self.short_text_at(span),
                origin: None,
                pattern: PatternPlace::Alone,
            };
            self.facts.normalized.push(NormalizedComparison {
                subject,
                made_by: made_by.clone(),
                shape: shape.clone(),
                other,
                how,
                in_test,
            });
        }
    }
}

impl Comparisons {
    /// A method call comparing its receiver with its argument (`a.eq(b)`,
    /// `p.starts_with("cu")`), or a list with a value
    /// (`["cuda", "rocm"].contains(&p)`).
    pub(super) fn method_call(
        &mut self,
        cx: &mut Cx<'_>,
        m: &syn::ExprMethodCall,
        name: &str,
        args: &[&Expr],
    ) {
        if args.len() != 1 {
            return;
        }
        if let Some(how) = method_comparison(name) {
            self.compare(cx, how, &m.receiver, &[args[0]]);
        }
        // `s.strip_prefix("..")` asks for a start, as `starts_with`.
        let strips = match name {
            "strip_prefix" => Some(ComparisonKind::StartsWith),
            "strip_suffix" => Some(ComparisonKind::EndsWith),
            _ => None,
        };
        if let Some(how) = strips {
            cx.compare_normalized(how, &m.receiver, &[args[0]]);
        }
        if name == "contains" {
            self.compare_with_list(cx, &m.receiver, args[0]);
        }
    }

    pub(super) fn compare(
        &mut self,
        cx: &mut Cx<'_>,
        how: ComparisonKind,
        subject: &Expr,
        others: &[&Expr],
    ) {
        cx.compare_normalized(how, subject, others);
        if how.is_symmetric()
            && let [other] = others
        {
            cx.compare_normalized(how, other, &[subject]);
        }
        if cx.in_canonicalizer > 0 {
            // Raw strings are compared inside the canonicalizer: that is its job.
            return;
        }
        let exprs: Vec<&Expr> = std::iter::once(subject)
            .chain(others.iter().copied())
            .collect();
        let operands: Vec<Operand> = exprs.iter().map(|e| cx.operand(e)).collect();
        cx.note_compared(how, &exprs, &operands);
        if !worth_recording(&operands) {
            return;
        }
        let sides = exprs
            .iter()
            .zip(operands)
            .map(|(e, operand)| cx.side(e, operand))
            .collect();
        self.record_comparison(cx, how, sides);
    }

    fn record_comparison(&mut self, cx: &mut Cx<'_>, how: ComparisonKind, sides: Vec<Side>) {
        if cx.in_canonicalizer > 0 {
            return;
        }
        let operands: Vec<Operand> = sides.iter().map(|s| s.operand.clone()).collect();
        // Inside the function that decides a call's value, the value is being
        // made (or the function recurses).
        let own =
            |o: &Operand| matches!(o, Operand::Call(c) if cx.function_call.as_ref() == Some(c));
        if worth_recording(&operands) && !operands.iter().any(own) {
            cx.facts.comparisons.push(Comparison {
                sides,
                how,
                scope: cx.scope,
                in_test: cx.ctx.test_scope.is_some() || cx.in_test_code > 0,
            });
        }
    }

    /// `match x { "a" => .., "b" | "c" => .. }` and `matches!(x, "a" | "b")`.
    /// `match dev.platform_name() { Some("a") => .. }`: a raw scrutinee is
    /// also compared with the literals inside `Some(..)` and `Ok(..)`.
    pub(super) fn compare_with_patterns<'p>(
        &mut self,
        cx: &mut Cx<'_>,
        how: ComparisonKind,
        scrutinee: &Expr,
        pats: impl IntoIterator<Item = &'p Pat>,
    ) {
        let mut lits = Vec::new();
        let mut wrapped = Vec::new();
        // Where each pattern's literals start in `lits`.
        let mut starts = Vec::new();
        for pat in pats {
            starts.push(lits.len());
            literal_patterns(pat, &mut lits, &mut wrapped, false);
        }
        if lits.is_empty() && wrapped.is_empty() {
            return;
        }
        if let Some((shape, _)) = cx.normalized_of(scrutinee) {
            starts.push(lits.len());
            let values: Vec<Option<String>> = lits.iter().map(|(l, _)| Some(l.value())).collect();
            let kept: Vec<(StrExpr, proc_macro2::Span)> = (0..lits.len())
                .filter(|&i| {
                    let at = starts.partition_point(|&s| s <= i) - 1;
                    let pattern = &values[starts[at]..starts[at + 1]];
                    !spelled_again(pattern, i - starts[at], &shape, how)
                })
                .map(|i| (StrExpr::Lit(lits[i].0.value()), lits[i].0.span()))
                .collect();
            cx.compare_normalized_with(how, scrutinee, || kept);
        }
        let operand = cx.operand(scrutinee);
        // A local of unknown origin: raw, where the function hands it to
        // a normalizer.
        if !matches!(operand, Operand::Raw | Operand::Canonical)
            && !lits.is_empty()
            && cx.in_canonicalizer == 0
        {
            let others = pattern_sides(cx, lits.clone());
            cx.note_scrutinee(how, scrutinee, others);
        }
        match operand {
            Operand::Raw | Operand::Call(_) => lits.extend(wrapped),
            Operand::Canonical => {}
            _ => return,
        }
        if lits.is_empty() {
            return;
        }
        let mut sides = vec![cx.side(scrutinee, operand)];
        sides.extend(pattern_sides(cx, lits));
        self.record_comparison(cx, how, sides);
    }
}

impl Walker<'_> {
    /// The guard of `matches!(value, pat if guard)`: `pat`'s names hold what
    /// `value` holds there, as in a `match` arm.
    pub(super) fn visit_guard(&mut self, value: &Expr, pat: &Pat, guard: &Expr) {
        let held = self.cx.binding_value(value);
        let origin = self.cx.origin_text(value, &held);
        self.with_scope(|w| {
            w.cx.bind_pat(pat, held, &origin);
            w.visit_expr(guard);
        });
    }
}

impl Comparisons {
    /// `["cuda", "rocm"].contains(&dev.platform())`: the value compared with
    /// each name of a literal list.
    fn compare_with_list(&mut self, cx: &mut Cx<'_>, list: &Expr, value: &Expr) {
        if cx.in_canonicalizer > 0 {
            return;
        }
        let Some(names) = platform_list(list, cx.scope) else {
            self.compare_with_array(cx, list, value);
            return;
        };
        if let Some((shape, _)) = cx.normalized_of(value) {
            let how = ComparisonKind::Contains;
            let values: Vec<Option<String>> = (names.iter())
                .map(|(n, _)| match n {
                    StrExpr::Lit(v) => Some(v.clone()),
                    _ => None,
                })
                .collect();
            let kept: Vec<(StrExpr, proc_macro2::Span)> = (names.iter().enumerate())
                .filter(|&(i, _)| !spelled_again(&values, i, &shape, how))
                .map(|(_, n)| n.clone())
                .collect();
            cx.compare_normalized_with(how, value, || kept);
        }
        let local = |p: &StrExpr| matches!(p, StrExpr::Path { segments, .. } if segments.len() == 1 && cx.lookup(&segments[0]).is_some());
        if names.iter().any(|(p, _)| local(p)) {
            return;
        }
        let operand = cx.operand(value);
        if !may_be_platform(&operand) {
            return;
        }
        let mut sides = vec![cx.side(value, operand)];
        sides.extend(names.iter().map(|(name, at)| cx.list_side(name, *at)));
        self.record_comparison(cx, ComparisonKind::Contains, sides);
    }

    /// `GPU_PLATFORMS.contains(&p)` with `const GPU_PLATFORMS: &[&str] =
    /// &["gpu", "cuda"]` in the file: as the list written out, its names
    /// where the array declares them (added once the file is walked).
    fn compare_with_array(&mut self, cx: &mut Cx<'_>, list: &Expr, value: &Expr) {
        let list = match strip_borrows(list) {
            Expr::MethodCall(m) if m.method == "iter" && m.args.is_empty() => &m.receiver,
            other => other,
        };
        let Expr::Path(p) = strip_borrows(list) else {
            return;
        };
        let Some(last) = p.path.segments.last() else {
            return;
        };
        let name = last.ident.to_string();
        let local = p.path.segments.len() == 1 && cx.lookup(&name).is_some();
        if p.qself.is_some() || local || name.chars().any(|c| c.is_lowercase()) {
            return;
        }
        let operand = cx.operand(value);
        if !may_be_platform(&operand) {
            return;
        }
        let side = cx.side(value, operand.clone());
        // As `record_comparison` would keep it, with a list of names.
        let own = matches!(&operand, Operand::Call(c) if cx.function_call.as_ref() == Some(c));
        if cx.in_canonicalizer > 0 || own {
            return;
        }
        let cmp = Comparison {
            sides: vec![side],
            how: ComparisonKind::Contains,
            scope: cx.scope,
            in_test: cx.ctx.test_scope.is_some() || cx.in_test_code > 0,
        };
        self.pending_lists.push((cmp, name));
    }
}

impl<'t> Cx<'t> {
    /// A name of a literal list, as a side of a comparison.
    fn list_side(&self, name: &StrExpr, at: proc_macro2::Span) -> Side {
        let text = match name {
            StrExpr::Lit(s) => format!("\"{s}\""),
            StrExpr::Path { segments, .. } | StrExpr::Item { segments, .. } => segments.join("::"),
        };
        Side {
            operand: Operand::Str(name.clone()),
            span: self.span_at(at),
            text,
            origin: None,
            pattern: PatternPlace::Alone,
        }
    }
}

impl Comparisons {
    /// Once the whole file is walked: the comparisons with an array of the
    /// file, with the names it holds.
    pub(super) fn finish(&mut self, cx: &mut Cx<'_>, values: &ValueSets) {
        for (mut cmp, name) in std::mem::take(&mut self.pending_lists) {
            let Some(names) = values.array_named(&name) else {
                continue;
            };
            cmp.sides.extend(names.iter().map(|(v, at)| Side {
                operand: Operand::Str(StrExpr::Lit(v.clone())),
                span: *at,
                text: format!("\"{v}\""),
                origin: None,
                pattern: PatternPlace::Alone,
            }));
            let operands: Vec<Operand> = cmp.sides.iter().map(|s| s.operand.clone()).collect();
            if worth_recording(&operands) {
                cx.facts.comparisons.push(cmp);
            }
        }
    }
}

/// The sides of a `match`'s (or `matches!`'s) literal patterns.
fn pattern_sides(cx: &Cx<'_>, lits: Vec<(&syn::LitStr, PatternPlace)>) -> Vec<Side> {
    (lits.into_iter())
        .map(|(lit, pattern)| Side {
            operand: Operand::Str(StrExpr::Lit(lit.value())),
            span: cx.span(lit),
            text: cx.short_text_at(cx.span(lit)),
            origin: None,
            pattern,
        })
        .collect()
}

/// The comparison a method call so named makes with its one argument.
pub(super) fn method_comparison(name: &str) -> Option<ComparisonKind> {
    Some(match name {
        "eq" => ComparisonKind::EqMethod,
        "ne" => ComparisonKind::NeMethod,
        "eq_ignore_ascii_case" => ComparisonKind::EqIgnoreAsciiCase,
        "starts_with" => ComparisonKind::StartsWith,
        "ends_with" => ComparisonKind::EndsWith,
        // `[..].contains(&p)` is a list's: `compare_with_list`.
        "contains" => ComparisonKind::StrContains,
        _ => return None,
    })
}

/// Whether `values[i]` (the literals of one or-pattern or list) is
/// spelled again as the normalizer gives it (`"ws" | "WS"` after
/// lowercasing): a redundant spelling, not a dead branch, since the
/// branch runs for the other.
fn spelled_again(
    values: &[Option<String>],
    i: usize,
    shape: &Normalized,
    how: ComparisonKind,
) -> bool {
    let Some(v) = &values[i] else {
        return false;
    };
    let fixed = [
        v.to_ascii_lowercase(),
        v.to_ascii_uppercase(),
        v.trim().to_string(),
    ];
    (values.iter().enumerate()).any(|(j, other)| {
        j != i
            && other
                .as_ref()
                .is_some_and(|o| fixed.contains(o) && shape.excludes(o, how).is_none())
    })
}

/// The comparison a macro so named makes of a value with patterns
/// (`matches!(x, "a" | "b")`).
pub(super) fn pattern_macro_comparison(name: &str) -> Option<ComparisonKind> {
    Some(match name {
        "matches" => ComparisonKind::Matches,
        "assert_matches" => ComparisonKind::AssertMatches,
        "debug_assert_matches" => ComparisonKind::DebugAssertMatches,
        _ => return None,
    })
}

/// The comparison a macro so named makes of its first two arguments.
pub(super) fn value_macro_comparison(name: &str) -> Option<ComparisonKind> {
    Some(match name {
        "assert_eq" => ComparisonKind::AssertEq,
        "assert_ne" => ComparisonKind::AssertNe,
        "debug_assert_eq" => ComparisonKind::DebugAssertEq,
        "debug_assert_ne" => ComparisonKind::DebugAssertNe,
        _ => return None,
    })
}

/// A platform value, or a call that may turn out to give one.
pub(super) fn may_be_platform(o: &Operand) -> bool {
    matches!(o, Operand::Raw | Operand::Canonical | Operand::Call(_))
}

/// A comparison involves a platform value and something it is compared with.
/// Only calls (`Operand::Call`) are kept when compared with something
/// that can be a name (a constant, or a literal without blanks): `f(x) ==
/// ""` is too common to keep, and no lint reports an empty or spaced value.
/// Whether peeling `e` passes a `.to_string()`.
fn passes_to_string(mut e: &Expr) -> bool {
    while let Some(inner) = crate::analysis::values::peel_step(e) {
        if matches!(e, Expr::MethodCall(m) if m.method == "to_string") {
            return true;
        }
        e = inner;
    }
    false
}

fn worth_recording(operands: &[Operand]) -> bool {
    let decided_here = |o: &Operand| matches!(o, Operand::Raw | Operand::Canonical);
    let name_like = |o: &Operand| match o {
        Operand::Str(StrExpr::Lit(s)) => {
            !s.is_empty() && s.len() <= 64 && !s.contains(char::is_whitespace)
        }
        Operand::Str(StrExpr::Path { .. }) => true,
        _ => false,
    };
    let compared = operands
        .iter()
        .filter(|o| !matches!(o, Operand::Other))
        .count();
    if operands.iter().any(decided_here) {
        compared >= 2
    } else {
        operands.iter().any(may_be_platform) && operands.iter().any(name_like)
    }
}

/// Every name a pattern binds.
pub(super) fn pat_idents(pat: &Pat, out: &mut Vec<String>) {
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

/// String literals a pattern matches: `"a"`, `"a" | "b"`, `"a" if ..`; those
/// inside `Some(..)` or `Ok(..)` go to `wrapped`. Each with whether it is
/// a sub-pattern that alternatives replacing it must parenthesize (`x @
/// "a"`, `&"a"`): `tight` says so of `pat` itself.
fn literal_patterns<'p>(
    pat: &'p Pat,
    out: &mut Vec<(&'p syn::LitStr, PatternPlace)>,
    wrapped: &mut Vec<(&'p syn::LitStr, PatternPlace)>,
    tight: bool,
) {
    match pat {
        Pat::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => out.push((
            s,
            if tight {
                PatternPlace::Bound
            } else {
                PatternPlace::Alone
            },
        )),
        // An alternative of an or-pattern is replaced within it.
        Pat::Or(o) => (o.cases.iter()).for_each(|c| literal_patterns(c, out, wrapped, false)),
        Pat::Paren(p) => literal_patterns(&p.pat, out, wrapped, false),
        Pat::Reference(r) => literal_patterns(&r.pat, out, wrapped, true),
        Pat::Guard(g) => literal_patterns(&g.pat, out, wrapped, tight),
        Pat::Ident(p) => {
            if let Some((_, sub)) = &p.subpat {
                literal_patterns(sub, out, wrapped, true)
            }
        }
        Pat::TupleStruct(t)
            if t.elems.len() == 1
                && t.path
                    .get_ident()
                    .is_some_and(|i| PASSTHROUGH_BINDERS.contains(&i.to_string().as_str())) =>
        {
            let mut inner = Vec::new();
            literal_patterns(&t.elems[0], &mut inner, &mut Vec::new(), false);
            wrapped.extend(
                inner
                    .into_iter()
                    .map(|(lit, _)| (lit, PatternPlace::Wrapped)),
            );
        }
        _ => {}
    }
}

/// `let` expressions of an `if let .. && let ..` chain, and the other conditions.
pub(super) fn let_chain<'e>(cond: &'e Expr, out: &mut Vec<&'e Expr>) {
    match cond {
        Expr::Binary(b) if matches!(b.op, syn::BinOp::And(_)) => {
            let_chain(&b.left, out);
            let_chain(&b.right, out);
        }
        other => out.push(other),
    }
}

/// A line of code without its `//` comment (a `//` inside a string stays).
pub(super) fn strip_line_comment(line: &str) -> &str {
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
