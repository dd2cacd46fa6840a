//! The first and last tokens of an expression, read from its syntax.
//!
//! `syn`'s `Spanned::span` of a node prints the node back into tokens and
//! joins the first and last spans: for a `let` whose value is a long chain
//! of calls, as much work as parsing it. A message names where a value
//! came from for every binding that may hold a platform value, so the
//! expressions that make most of them (calls, paths, fields, literals) are
//! placed here from the tokens syn keeps; any other shape (or one with
//! attributes) is left to `Spanned`.

use syn::Expr;

/// The spans of the first and last tokens of `e`, as syn prints it; `None`
/// for a shape not read here.
pub fn expr_ends(e: &Expr) -> Option<(proc_macro2::Span, proc_macro2::Span)> {
    Some((first(e)?, last(e)?))
}

fn first(e: &Expr) -> Option<proc_macro2::Span> {
    match e {
        Expr::Call(c) if c.attrs.is_empty() => first(&c.func),
        Expr::MethodCall(m) if m.attrs.is_empty() => first(&m.receiver),
        Expr::Field(f) if f.attrs.is_empty() => first(&f.base),
        Expr::Index(i) if i.attrs.is_empty() => first(&i.expr),
        Expr::Try(t) if t.attrs.is_empty() => first(&t.expr),
        Expr::Await(a) if a.attrs.is_empty() => first(&a.base),
        Expr::Binary(b) if b.attrs.is_empty() => first(&b.left),
        Expr::Path(p) if p.attrs.is_empty() => match &p.qself {
            Some(q) => Some(q.lt_token.span),
            None => path_first(&p.path),
        },
        Expr::Macro(m) if m.attrs.is_empty() => path_first(&m.mac.path),
        Expr::Lit(l) if l.attrs.is_empty() => Some(l.lit.span()),
        Expr::Reference(r) if r.attrs.is_empty() => Some(r.and_token.span),
        Expr::Paren(p) if p.attrs.is_empty() => Some(p.paren_token.span.open()),
        Expr::Tuple(t) if t.attrs.is_empty() => Some(t.paren_token.span.open()),
        Expr::Array(a) if a.attrs.is_empty() => Some(a.bracket_token.span.open()),
        _ => None,
    }
}

fn last(e: &Expr) -> Option<proc_macro2::Span> {
    match e {
        Expr::Call(c) => Some(c.paren_token.span.close()),
        Expr::MethodCall(m) => Some(m.paren_token.span.close()),
        Expr::Field(f) => Some(match &f.member {
            syn::Member::Named(n) => n.span(),
            syn::Member::Unnamed(i) => i.span,
        }),
        Expr::Index(i) => Some(i.bracket_token.span.close()),
        Expr::Try(t) => Some(t.question_token.span),
        Expr::Await(a) => Some(a.await_token.span),
        Expr::Binary(b) => last(&b.right),
        Expr::Path(p) => path_last(&p.path),
        Expr::Macro(m) => Some(m.mac.delimiter.span().close()),
        Expr::Lit(l) => Some(l.lit.span()),
        Expr::Reference(r) => last(&r.expr),
        Expr::Paren(p) => Some(p.paren_token.span.close()),
        Expr::Tuple(t) => Some(t.paren_token.span.close()),
        Expr::Array(a) => Some(a.bracket_token.span.close()),
        _ => None,
    }
}

fn path_first(p: &syn::Path) -> Option<proc_macro2::Span> {
    match &p.leading_colon {
        Some(colons) => Some(colons.spans[0]),
        None => p.segments.first().map(|s| s.ident.span()),
    }
}

fn path_last(p: &syn::Path) -> Option<proc_macro2::Span> {
    let last = p.segments.last()?;
    match &last.arguments {
        syn::PathArguments::None => Some(last.ident.span()),
        syn::PathArguments::AngleBracketed(a) => Some(a.gt_token.span),
        syn::PathArguments::Parenthesized(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::expr_ends;
    use syn::spanned::Spanned;
    use syn::visit::Visit;

    /// Every expression of the fixtures, the demo and this crate's own
    /// source placed here is placed where `Spanned` places it.
    #[test]
    fn ends_are_spanned_s() {
        struct Check(usize, usize);
        impl<'a> Visit<'a> for Check {
            fn visit_expr(&mut self, e: &'a syn::Expr) {
                self.1 += 1;
                if let Some((first, last)) = expr_ends(e) {
                    let whole = e.span().byte_range();
                    let ours = first.byte_range().start..last.byte_range().end;
                    assert_eq!(ours, whole, "{:?}", e.span().start());
                    self.0 += 1;
                }
                syn::visit::visit_expr(self, e);
            }
        }
        let mut check = Check(0, 0);
        for (_, text) in crate::model::repository_sources(&["lints", "src", "examples"]) {
            if let Ok(file) = syn::parse_file(&text) {
                check.visit_file(&file);
            }
        }
        // Most expressions are of the shapes read here.
        assert!(
            check.0 > 10_000 && check.0 * 2 > check.1,
            "{} of {}",
            check.0,
            check.1
        );
    }
}
