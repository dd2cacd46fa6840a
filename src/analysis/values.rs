//! Scope-free readings of expressions: string keys, platform lists, the
//! wrappers that do not change a value.

use syn::punctuated::Punctuated;
use syn::{Expr, Token};

use crate::model::facts::{ConstValue, Normalized, StrExpr};

/// Methods that hand back the same string (or a view of it, or it inside an
/// `Option`). Lowercasing is here on purpose: `to_lowercase()` is not
/// canonicalization, `"GPU"` becomes `"gpu"`, still an alias.
const SAME_VALUE_METHODS: &[&str] = &[
    "as_str",
    "into_owned",
    "ok",
    "as_ref",
    "as_deref",
    "borrow",
    "deref",
    "to_string",
    "to_owned",
    "clone",
    "into",
    "to_lowercase",
    "to_ascii_lowercase",
    "trim",
    "unwrap",
    "expect",
    "unwrap_or_default",
    "unwrap_or",
    "unwrap_or_else",
    "copied",
    "cloned",
];

/// Strip what does not change a string's value: `&x`, `*x`, `(x)`, `x?`, `x.await`,
/// `x.as_str()`, `x.to_string()`, `String::from(x)`, `Some(x)` ...
pub fn peel(mut e: &Expr) -> &Expr {
    while let Some(inner) = peel_step(e) {
        e = inner;
    }
    e
}

/// One step of [`peel`]: what `e` hands back unchanged, if anything.
pub fn peel_step(e: &Expr) -> Option<&Expr> {
    Some(match e {
        Expr::Paren(p) => &p.expr,
        Expr::Group(g) => &g.expr,
        Expr::Reference(r) => &r.expr,
        Expr::Try(t) => &t.expr,
        Expr::Await(a) => &a.base,
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => &u.expr,
        Expr::MethodCall(m) if SAME_VALUE_METHODS.contains(&m.method.to_string().as_str()) => {
            &m.receiver
        }
        Expr::Call(c) if c.args.len() == 1 && is_conversion_call(&c.func) => &c.args[0],
        _ => return None,
    })
}

/// The last segments of calls that hand their one argument on unchanged
/// (`String::from`, `Some`, `Ok`, `str::to_string`, `Cow::from`, `Into::into`...).
pub const CONVERSION_CALLS: &[&str] = &[
    "from",
    "Some",
    "Ok",
    "to_string",
    "to_owned",
    "into",
    "Borrowed",
    "Owned",
];

fn is_conversion_call(func: &Expr) -> bool {
    path_last(func).is_some_and(|name| CONVERSION_CALLS.contains(&name.as_str()))
}

/// `e` without the parentheses, groups, borrows and dereferences around it.
pub fn strip_borrows(mut e: &Expr) -> &Expr {
    loop {
        e = match e {
            Expr::Paren(p) => &p.expr,
            Expr::Group(g) => &g.expr,
            Expr::Reference(r) => &r.expr,
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => &u.expr,
            _ => return e,
        };
    }
}

/// Whether `name` is spelled as a constant or static is (`CUDA`,
/// `NAME_2`): upper case, no lower-case letter, two characters or more (a
/// variant `Mode::A` is spelled so too). A normalized value is
/// compared with a path's string only through one so named: the fast path
/// looks for no other (`prefilter::normalized`).
pub fn names_a_constant(name: &str) -> bool {
    name.len() > 1
        && name.bytes().any(|b| b.is_ascii_uppercase())
        && name
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// Last segment of a path expression: `a::b::c` -> `c`.
pub fn path_last(e: &Expr) -> Option<String> {
    match e {
        Expr::Path(p) if p.qself.is_none() => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

/// A string-valued expression that may be known: a literal, or a path that may
/// name a string constant. Local variables are filtered out by the caller.
pub fn str_expr(e: &Expr, scope: u32) -> Option<StrExpr> {
    match peel(e) {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(StrExpr::Lit(s.value())),
        Expr::Path(p) if p.qself.is_none() => Some(StrExpr::Path {
            segments: p
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect(),
            scope,
        }),
        Expr::Macro(m) if m.mac.path.is_ident("concat") => concat_literals(&m.mac.tokens),
        _ => None,
    }
}

/// What a `const`/`static` initialised with `e` is defined as. Only a bare
/// path (behind `&`) is an alias: the structure reader, which sees tokens,
/// reads the same (`prefilter::items` parses a value of words, `::` and `&`).
pub fn const_value(e: &Expr, scope: u32) -> ConstValue {
    if let Some(StrExpr::Lit(s)) = str_expr(e, scope) {
        return ConstValue::Str(s);
    }
    let mut e = e;
    while let Expr::Reference(r) = e {
        e = &r.expr;
    }
    // A path through generic arguments (`AMP::<f16>::NEG_INFINITY`,
    // `Const::<1>`) names an item of a generic type, never a constant of
    // ours: not followed (as the prefilter's structure reader does not).
    let generic = |p: &syn::ExprPath| (p.path.segments.iter()).any(|s| !s.arguments.is_none());
    match e {
        Expr::Path(p) if p.qself.is_none() && !generic(p) => ConstValue::Alias(
            (p.path.segments.iter())
                .map(|s| s.ident.to_string())
                .collect(),
        ),
        _ => ConstValue::Other,
    }
}

/// `concat!("a", "b")` of string literals only.
fn concat_literals(tokens: &proc_macro2::TokenStream) -> Option<StrExpr> {
    let parts = parse_args(tokens)?;
    let mut out = String::new();
    for part in &parts {
        match part {
            Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => out.push_str(&s.value()),
            _ => return None,
        }
    }
    Some(StrExpr::Lit(out))
}

/// Macro arguments as comma-separated expressions.
pub fn parse_args(tokens: &proc_macro2::TokenStream) -> Option<Punctuated<Expr, Token![,]>> {
    use syn::parse::Parser;
    Punctuated::<Expr, Token![,]>::parse_terminated
        .parse2(tokens.clone())
        .ok()
}

/// A literal list of platform names: `["gpu"]`, `&["cpu", "cuda"]`,
/// `vec!["tpu"]`, `Some(vec![..])`, `[..].to_vec()`.
pub fn platform_list(e: &Expr, scope: u32) -> Option<Vec<(StrExpr, proc_macro2::Span)>> {
    let mut e = e;
    loop {
        e = match e {
            Expr::Paren(p) => &p.expr,
            Expr::Group(g) => &g.expr,
            Expr::Reference(r) => &r.expr,
            Expr::MethodCall(m)
                if m.args.is_empty()
                    && matches!(
                        m.method.to_string().as_str(),
                        "to_vec"
                            | "into"
                            | "to_owned"
                            | "iter"
                            | "into_iter"
                            | "copied"
                            | "cloned"
                            | "enumerate"
                    ) =>
            {
                &m.receiver
            }
            Expr::Call(c) if c.args.len() == 1 && is_conversion_call(&c.func) => &c.args[0],
            _ => break,
        };
    }
    let elems: Vec<Expr> = match e {
        Expr::Array(a) => a.elems.iter().cloned().collect(),
        Expr::Macro(m) if m.mac.path.is_ident("vec") => {
            parse_args(&m.mac.tokens)?.into_iter().collect()
        }
        _ => return None,
    };
    if elems.is_empty() {
        return None;
    }
    elems
        .iter()
        .map(|e| Some((str_expr(e, scope)?, syn::spanned::Spanned::span(e))))
        .collect()
}

/// `get_backend("cpu")` (any path or method whose name is in `requests`),
/// possibly wrapped in `Some(..)`, `?`, `.unwrap()`, `&`: the platform it asks for.
pub fn backend_request(
    e: &Expr,
    scope: u32,
    requests: impl Fn(&str) -> bool,
) -> Option<(StrExpr, &Expr, &Expr)> {
    let e = peel(e);
    let arg = match e {
        Expr::Call(c) if path_last(&c.func).is_some_and(|n| requests(&n)) => c.args.first()?,
        Expr::MethodCall(m) if requests(&m.method.to_string()) => m.args.first()?,
        _ => return None,
    };
    Some((str_expr(arg, scope)?, e, arg))
}

/// The field name of `x.name`.
pub fn field_name(e: &Expr) -> Option<String> {
    match e {
        Expr::Field(f) => match &f.member {
            syn::Member::Named(n) => Some(n.to_string()),
            syn::Member::Unnamed(_) => None,
        },
        _ => None,
    }
}

/// `x.platforms`, `x.platforms.iter()`, `&x.platforms`, `x.platforms.iter().copied()`:
/// an iterator over (or collection of) lowering platforms, which are canonical.
pub fn is_platforms_collection(e: &Expr) -> bool {
    let mut e = e;
    loop {
        e = match e {
            Expr::Paren(p) => &p.expr,
            Expr::Reference(r) => &r.expr,
            Expr::MethodCall(m)
                if matches!(
                    m.method.to_string().as_str(),
                    "iter"
                        | "into_iter"
                        | "copied"
                        | "cloned"
                        | "filter"
                        | "skip"
                        | "take"
                        | "rev"
                        | "as_slice"
                ) =>
            {
                &m.receiver
            }
            Expr::Field(_) => return field_name(e).as_deref() == Some("platforms"),
            _ => return false,
        };
    }
}

pub use crate::model::facts::DEBUG_CALL as DEBUG;

/// The words a call of the value-deciding function `name` is written
/// with: a `Display`'s `to_string` is also written `format!("{}", x)`.
pub fn written_as(name: &str) -> impl Iterator<Item = &str> {
    let format = (name == "to_string").then_some("format");
    std::iter::once(name).chain(format)
}

/// Methods that hand back the same string, for what a normalizer made of
/// it ([`normalized`]): views and copies only (not `unwrap_or(..)`, whose
/// default was never normalized).
pub const SAME_STRING_METHODS: &[&str] = &[
    "as_str",
    "as_ref",
    "borrow",
    "deref",
    "to_string",
    "to_owned",
    "clone",
    "into",
    "into_owned",
];

/// What the standard library's normalizers applied last to `e` guarantee
/// of it (`name.trim().to_lowercase()`, `s.replace("darwin", "macos")`),
/// through views and copies of the result; `local` gives what a local's
/// value is known to be. `None` when nothing is known.
pub fn normalized(e: &Expr, local: &dyn Fn(&str) -> Option<Normalized>) -> Option<Normalized> {
    let mut e = e;
    loop {
        e = match strip_borrows(e) {
            Expr::MethodCall(m)
                if m.args.is_empty()
                    && SAME_STRING_METHODS.contains(&m.method.to_string().as_str()) =>
            {
                &m.receiver
            }
            Expr::Call(c)
                if c.args.len() == 1
                    && path_last(&c.func).is_some_and(|n| n == "from")
                    && matches!(&*c.func, Expr::Path(p) if p.path.segments.len() == 2
                        && p.path.segments[0].ident == "String") =>
            {
                &c.args[0]
            }
            _ => break,
        };
    }
    let shape = match strip_borrows(e) {
        Expr::Path(p) => local(&p.path.get_ident()?.to_string())?,
        Expr::MethodCall(m) => {
            let before = || normalized(&m.receiver, local).unwrap_or_default();
            let name = m.method.to_string();
            // The names the fast path watches for (`Names::Normalizers`).
            if !crate::config::NORMALIZERS.contains(&name.as_str()) {
                return None;
            }
            match (name.as_str(), m.args.len()) {
                ("to_lowercase" | "to_ascii_lowercase", 0) => before().cased(false),
                ("to_uppercase" | "to_ascii_uppercase", 0) => before().cased(true),
                ("trim", 0) => before().trim(),
                ("replace", 2) => {
                    let from = match &m.args[0] {
                        Expr::Lit(syn::ExprLit {
                            lit: syn::Lit::Str(s),
                            ..
                        }) => s.value(),
                        Expr::Lit(syn::ExprLit {
                            lit: syn::Lit::Char(c),
                            ..
                        }) => c.value().to_string(),
                        _ => return None,
                    };
                    let Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(to),
                        ..
                    }) = &m.args[1]
                    else {
                        return None;
                    };
                    before().replaced(&from, &to.value())
                }
                _ => return None,
            }
        }
        _ => return None,
    };
    (!shape.is_empty()).then_some(shape)
}
