//! Closed value sets (issue 19): functions that return only string
//! literals, the calls of them whose type is known, and those calls
//! compared with strings. Whether a comparison can ever hold is decided
//! crate-wide, where every function of that name is known.

use super::*;
use crate::analysis::last_segment;
use crate::model::facts::{CallSite, FieldDef, Returner, ValueCall, ValueSet};
use syn::visit::Visit;

/// Value sets and the functions returning platform values
/// (`platform_fns.rs`) start from string literals, one of them a canonical
/// platform, and from what the comparisons' sides start from: no name of
/// their own.
pub(super) const COLLECTOR: Collector = Collector {
    name: "value sets",
    // A unit variant spelled as a platform (`Cpu`): a derived `Debug`
    // writes its name, a value set.
    starts: &[Start {
        names: Names::PlatformVariants,
        at: NameUse::Anywhere,
        alone: true,
    }],
    reads: &[],
};

/// The value sets collector's state.
#[derive(Default)]
pub(super) struct ValueSets {
    /// What the function being walked returns (`return`s and its tail),
    /// with the first as written; `None` when it returns no string
    /// (`platform_fns.rs`).
    pub(super) fn_returns: Option<(Vec<Operand>, String)>,
    /// The file's `const`/`static` arrays of string literals, by name,
    /// each literal with its place.
    arrays: Vec<(String, Vec<(String, Span)>)>,
    /// Value sets indexing arrays of the file (by name) or giving what
    /// another method of their type returns, for when the whole file is
    /// walked.
    pending_sets: Vec<(ValueSet, Returned)>,
}

/// Fields followed from a receiver of known type at most
/// (`self.a.b.c.d.as_str()`): deeper chains are rare and not followed.
const MAX_FIELDS: usize = 4;

/// Macros that never return: an arm calling one gives no value.
const DIVERGING: &[&str] = &["panic", "unreachable", "todo", "unimplemented"];

impl<'t> Cx<'t> {
    /// A function of the file as a call would name it: `Backend::as_str` for
    /// a method, `platform_name` for a free function. A trait's default
    /// method (`dyn Trait`) is overridden by its impls: no closed set.
    pub(super) fn call_of(&self, name: &str, is_method: bool) -> Option<ValueCall> {
        let ty = match (&self.self_type, is_method) {
            (Some(ty), _) if ty.starts_with("dyn ") => return None,
            (Some(ty), _) => Some(last_segment(ty).to_string()),
            (None, false) => None,
            (None, true) => return None,
        };
        Some(ValueCall {
            ty,
            name: name.to_string(),
            ..ValueCall::default()
        })
    }
}

impl ValueSets {
    /// Record `sig`/`block` as a value set when every value it returns is a
    /// string literal and one is a canonical platform name (in any case). A method takes
    /// only `self`; a free or associated function one argument (the value).
    pub(super) fn value_set(&mut self, cx: &mut Cx<'_>, sig: &syn::Signature, block: &syn::Block) {
        let takes_self = matches!(sig.inputs.first(), Some(syn::FnArg::Receiver(_)));
        // `Display::fmt(&self, f)` decides what `to_string()` gives.
        let display = cx.display_impl && takes_self && sig.ident == "fmt";
        let (name, returned) = if display {
            ("to_string".to_string(), display_literals(block))
        } else if sig.inputs.len() == 1 {
            (sig.ident.to_string(), block_literals(block))
        } else {
            return;
        };
        // Another method's values count for a `Display` only: the fast
        // path keeps the bodies of `fmt` (it blanks those naming nothing).
        let Some(returned) = returned.filter(|r| display || r.calls.is_empty()) else {
            return;
        };
        let Some(call) = cx.call_of(&name, takes_self) else {
            return;
        };
        let set = ValueSet {
            call,
            values: returned.values.clone(),
            span: cx.span(&sig.ident),
            line: sig.ident.span().start().line as u32,
        };
        // `NAMES[self as usize]`, `self.code()`: the array or the method
        // may be declared further down.
        match returned.arrays.is_empty() && returned.calls.is_empty() {
            true => self.add_value_set(cx, set),
            false => self.pending_sets.push((set, returned)),
        }
    }

    /// Record `set` when one of its values is a canonical platform name, in
    /// any case (`"cuda"`, `"CUDA"`, `"Cuda"`): a set of display names is as
    /// closed as one of canonical names.
    fn add_value_set(&mut self, cx: &mut Cx<'_>, mut set: ValueSet) {
        let platform = |v: &String| crate::config::platform::holds_platform(cx.vocab, v);
        if set.values.iter().any(platform) {
            dedup_in_order(&mut set.values);
            cx.facts.value_sets.push(set);
        }
    }

    /// An enum of unit variants deriving `Debug`: `format!("{:?}", x)`
    /// writes one variant's name (`Cpu`, `IntegratedGpu`), a closed set.
    pub(super) fn derived_debug(&mut self, cx: &mut Cx<'_>, e: &syn::ItemEnum) {
        // A raw name (`r#Cuda`) is left out, as the fast path's lexer
        // leaves it.
        let unit = |v: &syn::Variant| {
            matches!(v.fields, syn::Fields::Unit) && !v.ident.to_string().starts_with("r#")
        };
        // A variant spelled as a platform, as the fast path finds it, and
        // another as a platform or an alias (`Cpu` and `Gpu`): a device
        // kind, not an enum with one such word (a resource limit's `Cpu`).
        let platform =
            |v: &syn::Variant| (cx.vocab).has(Names::PlatformVariants, &v.ident.to_string());
        let alias = |v: &syn::Variant| {
            let name = v.ident.to_string();
            name.starts_with(|c: char| c.is_ascii_uppercase())
                && (cx.vocab.aliases.iter()).any(|(a, _)| a.eq_ignore_ascii_case(&name))
        };
        let kinds = e
            .variants
            .iter()
            .filter(|v| platform(v) || alias(v))
            .count();
        if !e.variants.iter().all(unit)
            || !e.variants.iter().any(platform)
            || kinds < 2
            || !derives_debug(&e.attrs)
        {
            return;
        }
        let set = ValueSet {
            call: ValueCall {
                ty: Some(e.ident.to_string()),
                name: crate::analysis::values::DEBUG.to_string(),
                ..ValueCall::default()
            },
            values: e.variants.iter().map(|v| v.ident.to_string()).collect(),
            span: cx.span(&e.ident),
            line: e.ident.span().start().line as u32,
        };
        self.add_value_set(cx, set);
    }

    /// A `const`/`static` array of string literals (`[&str; 3]`,
    /// `&[&str]`): known to the file's functions that index it
    /// (`NAMES[self as usize]`) or look a value up in it
    /// (`GPU_PLATFORMS.contains(&p)`), by its name.
    pub(super) fn str_array(&mut self, cx: &mut Cx<'_>, ident: &syn::Ident, e: &Expr) {
        let Some(names) = str_array(e) else {
            return;
        };
        let name = ident.to_string();
        let elems = (names.iter())
            .map(|(value, at)| (value.clone(), cx.span_at(*at)))
            .collect();
        let platform = |(v, _): &(String, _)| crate::config::platform::is_canonical(cx.vocab, v);
        if names.iter().any(platform) && !cx.facts.str_arrays.contains(&name) {
            cx.facts.str_arrays.push(name.clone());
        }
        self.arrays.push((name, elems));
    }

    /// The one array of the file named `name` (two that differ: none).
    pub(super) fn array_named(&self, name: &str) -> Option<&[(String, Span)]> {
        let mut found = self.arrays.iter().filter(|(n, _)| n == name);
        let (_, first) = found.next()?;
        let same = |(_, other): &&(String, Vec<(String, Span)>)| {
            other
                .iter()
                .map(|(v, _)| v)
                .eq(first.iter().map(|(v, _)| v))
        };
        found.all(|a| same(&a)).then_some(first.as_slice())
    }
}

impl ValueSets {
    /// Once the whole file is walked: the value sets that index an array
    /// of the file, with its values; then those giving what another
    /// method of their type returns (`f.write_str(self.code())` in a
    /// `Display`), with that method's values when it is a value set of
    /// the file.
    pub(super) fn finish(&mut self, cx: &mut Cx<'_>) {
        let mut delegating = Vec::new();
        'sets: for (mut set, returned) in std::mem::take(&mut self.pending_sets) {
            for name in &returned.arrays {
                let Some(values) = self.array_named(name) else {
                    continue 'sets;
                };
                set.values.extend(values.iter().map(|(v, _)| v.clone()));
            }
            match returned.calls.is_empty() {
                true => self.add_value_set(cx, set),
                false => delegating.push((set, returned.calls)),
            }
        }
        'sets: for (mut set, calls) in delegating {
            for name in &calls {
                let found = (cx.facts.value_sets.iter())
                    .find(|s| s.call.ty == set.call.ty && s.call.name == *name);
                let Some(found) = found else {
                    continue 'sets;
                };
                set.values.extend(found.values.iter().cloned());
            }
            self.add_value_set(cx, set);
        }
    }
}

impl<'t> Cx<'t> {
    /// `b.as_str()` with `b` of a known type, `Backend::as_str(&b)`,
    /// `platform_name(k)`, or a local holding one; through what does not
    /// change a value (`.to_string()` after it, `&`, `( )`).
    pub(super) fn value_call(&self, e: &Expr) -> Option<ValueCall> {
        // `format!("{}", x)` gives what `x.to_string()` gives, also under
        // what hands a `String` on (`format!("{}", b).as_str()`: no call
        // deciding a value, so no site).
        let mut inner = strip_borrows(e);
        while let Expr::MethodCall(m) = inner
            && m.args.is_empty()
            && peel_step(inner).is_some()
        {
            inner = strip_borrows(&m.receiver);
        }
        if let Expr::Macro(m) = inner
            && m.mac.path.is_ident("format")
        {
            let (arg, debug) = formatted_arg(&m.mac)?;
            // `Debug` writes what a derive says, of the argument itself:
            // no call of it hands a value on.
            let (name, site) = match debug {
                true => (
                    crate::analysis::values::DEBUG,
                    crate::analysis::values::DEBUG,
                ),
                false => ("to_string", "format"),
            };
            let sites = vec![CallSite {
                span: self.span(&m.mac.path),
                name: site.to_string(),
            }];
            if let Some((ty, fields)) = self.receiver_type(&arg, 0) {
                return Some(ValueCall {
                    ty: Some(ty),
                    fields,
                    name: name.to_string(),
                    sites,
                    ..ValueCall::default()
                });
            }
            if debug {
                return Some(ValueCall {
                    name: name.to_string(),
                    opaque: true,
                    sites,
                    ..ValueCall::default()
                });
            }
            return self.value_call_from(&arg, sites);
        }
        self.value_call_from(e, Vec::new())
    }

    /// [`Cx::value_call`] of `e`, `sites` the calls passed before it.
    fn value_call_from(&self, e: &Expr, mut sites: Vec<CallSite>) -> Option<ValueCall> {
        let mut e = e;
        // The value-changing methods passed, outermost first.
        let mut applied = Vec::new();
        let found = loop {
            match e {
                Expr::MethodCall(m) if m.args.is_empty() => {
                    sites.push(CallSite {
                        span: self.span(&m.method),
                        name: m.method.to_string(),
                    });
                    if let Some((ty, fields)) = self.receiver_type(&m.receiver, 0) {
                        break Some(ValueCall {
                            ty: Some(ty),
                            fields,
                            name: m.method.to_string(),
                            ..ValueCall::default()
                        });
                    }
                }
                // `Some(x)`, `String::from(x)` hand back their argument.
                Expr::Call(c) if peel_step(e).is_none() => {
                    let call = self.path_call(&c.func);
                    if let (Some(_), Expr::Path(p)) = (&call, &*c.func)
                        && let Some(last) = p.path.segments.last()
                    {
                        sites.push(CallSite {
                            span: self.span(&last.ident),
                            name: last.ident.to_string(),
                        });
                    }
                    break call;
                }
                Expr::Path(p) => {
                    let returned = (p.path.get_ident())
                        .and_then(|ident| self.lookup(&ident.to_string())?.returned.clone());
                    break returned.map(|mut r| {
                        sites.append(&mut r.sites);
                        r.sites = sites.clone();
                        r
                    });
                }
                _ => {}
            }
            if let Expr::MethodCall(m) = e
                && matches!(
                    m.method.to_string().as_str(),
                    "to_lowercase" | "to_ascii_lowercase" | "trim"
                )
            {
                applied.push(m.method.to_string());
            }
            match peel_step(e) {
                Some(inner) => e = inner,
                None => break None,
            }
        };
        match found {
            Some(mut call) => {
                if call.sites.is_empty() {
                    call.sites = sites;
                }
                call.then.extend(applied.into_iter().rev());
                Some(call)
            }
            // A method of a receiver whose type is not written here
            // (`get_accelerator().name()`): the model may know it.
            None => {
                let name = sites.last()?.name.clone();
                Some(ValueCall {
                    name,
                    opaque: true,
                    sites,
                    then: applied.into_iter().rev().collect(),
                    ..ValueCall::default()
                })
            }
        }
    }

    /// `Backend::as_str` (a type's, `Self` the impl's), `names::platform_name`
    /// or `platform_name` (a free function's) as a callee.
    pub(super) fn path_call(&self, func: &Expr) -> Option<ValueCall> {
        let Expr::Path(p) = func else {
            return None;
        };
        // `<Backend as Named>::name(&b)`, `<Backend>::to_str(b)`: the
        // method of the type written first.
        if let Some(q) = &p.qself {
            let syn::Type::Path(t) = &*q.ty else {
                return None;
            };
            let ty = match t.path.segments.last()?.ident.to_string() {
                s if s == "Self" => last_segment(self.self_type.as_deref()?).to_string(),
                s => s,
            };
            if t.qself.is_some() || ty.starts_with("dyn ") || !is_type_name(&ty) {
                return None;
            }
            return Some(ValueCall {
                ty: Some(ty),
                name: p.path.segments.last()?.ident.to_string(),
                ..ValueCall::default()
            });
        }
        let segments: Vec<String> = p
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        let (name, owner) = segments.split_last()?;
        let ty = match owner.last() {
            Some(o) if o == "Self" => Some(last_segment(self.self_type.as_deref()?).to_string()),
            Some(o) if is_type_name(o) => Some(o.clone()),
            _ => None,
        };
        if ty.as_deref().is_some_and(|t| t.starts_with("dyn ")) {
            return None;
        }
        Some(ValueCall {
            ty,
            name: name.clone(),
            ..ValueCall::default()
        })
    }

    /// The type of a receiver, when the code says it: `self` in an impl, a
    /// local or parameter of a written type or made from `Backend::Vulkan`,
    /// a path `Backend::Vulkan` itself; or the fields from a value of such
    /// a type to the receiver (`info.backend`, `self.adapter.info.backend`),
    /// whose types the crate pass knows from the struct definitions.
    fn receiver_type(&self, e: &Expr, depth: usize) -> Option<(String, Vec<String>)> {
        let e = strip_borrows(e);
        if let Expr::Field(f) = e {
            if depth >= MAX_FIELDS {
                return None;
            }
            let field = match &f.member {
                syn::Member::Named(n) => n.to_string(),
                syn::Member::Unnamed(i) => i.index.to_string(),
            };
            let (ty, mut fields) = self.receiver_type(&f.base, depth + 1)?;
            fields.push(field);
            return Some((ty, fields));
        }
        self.named_type(e).map(|ty| (ty, Vec::new()))
    }

    /// The type of a path the code says it of ([`Cx::receiver_type`]).
    fn named_type(&self, e: &Expr) -> Option<String> {
        let Expr::Path(p) = e else {
            return None;
        };
        if p.qself.is_some() {
            return None;
        }
        if let Some(ident) = p.path.get_ident() {
            if ident == "self" {
                let ty = self.self_type.as_deref()?;
                return (!ty.starts_with("dyn ")).then(|| last_segment(ty).to_string());
            }
            return self.lookup(&ident.to_string())?.ty.clone();
        }
        variant_type(p, self.self_type.as_deref())
    }

    /// The type a `let` gives its binding: written (`let b: Backend`) or
    /// that of a variant it is set to (`Backend::Vulkan`).
    pub(super) fn let_type(&self, pat: &Pat, init: &Expr) -> Option<String> {
        if let Pat::Type(t) = pat {
            return written_type(&t.ty);
        }
        match strip_borrows(init) {
            Expr::Path(p) if p.qself.is_none() => variant_type(p, self.self_type.as_deref()),
            _ => None,
        }
    }

    /// Bind the parameters of a function whose type is a named type that is
    /// not a string (`b: Backend`, `b: &Backend`): a receiver of known type.
    /// Other parameters stay unbound, as before.
    pub(super) fn bind_params(&mut self, sig: &syn::Signature) {
        for input in &sig.inputs {
            if let syn::FnArg::Typed(t) = input
                && let Pat::Ident(p) = &*t.pat
                && let Some(ty) = written_type(&t.ty)
            {
                self.bind(p.ident.to_string(), Operand::Other, String::new());
                self.set_binding_type(&p.ident.to_string(), Some(ty), None);
            }
        }
    }
}

impl ValueSets {
    /// Record the fields of `s` whose type is a named type (`backend:
    /// Backend`), or one of its type parameters (no type known): what the
    /// crate pass follows `info.backend.to_str()` through.
    pub(super) fn struct_fields(&mut self, cx: &mut Cx<'_>, s: &syn::ItemStruct) {
        let params: Vec<String> = (s.generics.type_params())
            .map(|p| p.ident.to_string())
            .collect();
        let owner = s.ident.to_string();
        for (i, field) in s.fields.iter().enumerate() {
            let Some(ty) = written_type(&field.ty) else {
                continue;
            };
            let name = field
                .ident
                .as_ref()
                .map_or_else(|| i.to_string(), |n| n.to_string());
            cx.facts.fields.push(FieldDef {
                owner: owner.clone(),
                field: name,
                ty: (!params.contains(&ty)).then_some(ty),
            });
        }
    }
}

impl<'t> Cx<'t> {
    /// Record `sig` when its declared result is a named type: what a
    /// call of it (`current().label()`) gives a method call.
    pub(super) fn returner(&mut self, sig: &syn::Signature) {
        let syn::ReturnType::Type(_, ty) = &sig.output else {
            return;
        };
        let Some(ty) = returned_type(ty, self.self_type.as_deref()) else {
            return;
        };
        self.facts.returners.push(Returner {
            name: sig.ident.to_string(),
            ty,
        });
    }

    /// Give the innermost binding `name` a type and the call it holds.
    pub(super) fn set_binding_type(
        &mut self,
        name: &str,
        ty: Option<String>,
        returned: Option<ValueCall>,
    ) {
        if let Some(b) = (self.frame.scopes)
            .last_mut()
            .and_then(|s| s.iter_mut().rev().find(|b| b.name == name))
        {
            b.ty = ty;
            b.returned = returned;
        }
    }
}

pub(super) use crate::analysis::values::strip_borrows;

/// `Backend::Vulkan` (both capitalised): a value of type `Backend`;
/// `Self::Vulkan` one of the impl's type.
fn variant_type(p: &syn::ExprPath, self_type: Option<&str>) -> Option<String> {
    let n = p.path.segments.len();
    if n < 2 {
        return None;
    }
    let ty = p.path.segments[n - 2].ident.to_string();
    let variant = p.path.segments[n - 1].ident.to_string();
    if !is_type_name(&variant) || variant.chars().all(|c| !c.is_lowercase()) {
        // `Backend::NAME` is a constant, of any type.
        return None;
    }
    match ty.as_str() {
        "Self" => self_type
            .filter(|t| !t.starts_with("dyn "))
            .map(|t| last_segment(t).to_string()),
        _ if is_type_name(&ty) => Some(ty),
        _ => None,
    }
}

/// A named type written on a parameter or `let`, not a string or a
/// wrapper of unknown content: `Backend`, `&Backend`, `crate::Backend<T>`.
fn written_type(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Reference(r) => written_type(&r.elem),
        syn::Type::Paren(p) => written_type(&p.elem),
        syn::Type::Group(g) => written_type(&g.elem),
        syn::Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last()?.ident.to_string();
            let generic = matches!(
                last.as_str(),
                "String" | "Cow" | "Option" | "Result" | "Box" | "Rc" | "Arc" | "Vec" | "Self"
            );
            (is_type_name(&last) && !generic).then_some(last)
        }
        _ => None,
    }
}

/// The named type a function's result holds (`Kind`, `&Kind`,
/// `Option<Kind>`, `Result<Arc<Kind>, E>`; `Self` in an impl of `Kind`).
fn returned_type(ty: &syn::Type, self_type: Option<&str>) -> Option<String> {
    match ty {
        syn::Type::Reference(r) => returned_type(&r.elem, self_type),
        syn::Type::Paren(p) => returned_type(&p.elem, self_type),
        syn::Type::Group(g) => returned_type(&g.elem, self_type),
        syn::Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last()?;
            match last.ident.to_string().as_str() {
                "Self" => {
                    let ty = last_segment(self_type?);
                    (is_type_name(ty) && !ty.starts_with("dyn ")).then(|| ty.to_string())
                }
                "Option" | "Result" | "Box" | "Rc" | "Arc" => {
                    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
                        return None;
                    };
                    match args.args.first()? {
                        syn::GenericArgument::Type(inner) => returned_type(inner, self_type),
                        _ => None,
                    }
                }
                _ => written_type(ty),
            }
        }
        _ => None,
    }
}

fn is_type_name(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_uppercase())
}

/// `["cpu", "cuda"]` or `&["cpu", "cuda"]`: its literals and where each is.
fn str_array(e: &Expr) -> Option<Vec<(String, proc_macro2::Span)>> {
    let Expr::Array(a) = strip_borrows(e) else {
        return None;
    };
    let elems = a.elems.iter().map(|e| match e {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some((s.value(), s.span())),
        _ => None,
    });
    let elems: Option<Vec<_>> = elems.collect();
    elems.filter(|e| !e.is_empty())
}

fn dedup_in_order(values: &mut Vec<String>) {
    let mut seen = std::collections::HashSet::new();
    values.retain(|v| seen.insert(v.clone()));
}

/// What a function returns: string literals, elements of the file's
/// arrays of literals (`NAMES[self as usize]`), by the arrays' names, and
/// what methods of its own type called on `self` return (`self.code()`),
/// by the methods' names.
#[derive(Default, Clone)]
struct Returned {
    values: Vec<String>,
    arrays: Vec<String>,
    calls: Vec<String>,
}

impl Returned {
    fn is_empty(&self) -> bool {
        self.values.is_empty() && self.arrays.is_empty() && self.calls.is_empty()
    }

    fn extend(&mut self, other: &Returned) {
        self.values.extend(other.values.iter().cloned());
        self.arrays.extend(other.arrays.iter().cloned());
        self.calls.extend(other.calls.iter().cloned());
    }
}

/// Every value a body returns, when each is a string literal (or an
/// element of an array of them), also through locals given only those
/// (`let name = match self { .. }; name.to_string()`).
fn block_literals(block: &syn::Block) -> Option<Returned> {
    let mut out = Returned::default();
    tail_literals(block, &Env::new(), &mut out, &expr_literals)?;
    returns_literals(block, &mut out)?;
    (!out.is_empty()).then_some(out)
}

/// What a `Display::fmt` writes, when each is one literal: `write!(f,
/// "vulkan")`, `f.write_str("vulkan")`, in the arms of a `match`, or a
/// local holding only literals (`write!(f, "{}", text)`).
fn display_literals(block: &syn::Block) -> Option<Returned> {
    let mut out = Returned::default();
    tail_literals(block, &Env::new(), &mut out, &written_literals)?;
    (!out.is_empty()).then_some(out)
}

/// The locals in scope, latest last: what each holds when that is only
/// literals, `None` when it may hold anything else.
type Env = Vec<(String, Option<Returned>)>;

type Reader = dyn Fn(&Expr, &Env, &mut Returned) -> Option<()>;

/// The tail expression of `block`, read by `read`, with the block's `let`s
/// in scope; a block with no tail (or statements after a `match`) gives
/// nothing known.
fn tail_literals(block: &syn::Block, env: &Env, out: &mut Returned, read: &Reader) -> Option<()> {
    let (tail, stmts) = block.stmts.split_last()?;
    let syn::Stmt::Expr(e, None) = tail else {
        return None;
    };
    let mut env = env.clone();
    for stmt in stmts {
        if let syn::Stmt::Local(local) = stmt {
            bind_local(local, &mut env);
        }
    }
    read(e, &env, out)
}

/// Bring the names `local` binds into `env`: a plain `let name = ..` of
/// literals holds them; a `let mut`, a pattern or any other value holds
/// anything (and hides an outer local of that name).
fn bind_local(local: &syn::Local, env: &mut Env) {
    let mut pat = &local.pat;
    if let Pat::Type(t) = pat {
        pat = &t.pat;
    }
    if let Pat::Ident(p) = pat
        && p.mutability.is_none()
        && p.by_ref.is_none()
        && p.subpat.is_none()
    {
        let held = local
            .init
            .as_ref()
            .filter(|i| i.diverge.is_none())
            .and_then(|i| {
                let mut found = Returned::default();
                expr_literals(&i.expr, env, &mut found).map(|()| found)
            });
        env.push((p.ident.to_string(), held));
        return;
    }
    struct Names<'e>(&'e mut Env);
    impl<'ast> Visit<'ast> for Names<'_> {
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            self.0.push((p.ident.to_string(), None));
            syn::visit::visit_pat_ident(self, p);
        }
    }
    Names(env).visit_pat(pat);
}

/// The values of a local named by `e` (`text`), when it holds only literals.
fn local_literals(e: &Expr, env: &Env, out: &mut Returned) -> Option<()> {
    let Expr::Path(p) = e else {
        return None;
    };
    let name = p.path.get_ident()?.to_string();
    let (_, held) = env.iter().rev().find(|(n, _)| *n == name)?;
    out.extend(held.as_ref()?);
    Some(())
}

/// The values of `e`, when it can only be string literals, elements of
/// an array named by a path (`NAMES[i]`, `Self::NAMES[i]`), locals holding
/// those, or diverge.
fn expr_literals(e: &Expr, env: &Env, out: &mut Returned) -> Option<()> {
    branches(e, env, out, &expr_literals, |e, out| match peel_copies(e) {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => {
            out.values.push(s.value());
            Some(())
        }
        Expr::Index(i) => {
            let Expr::Path(p) = &*i.expr else {
                return None;
            };
            let name = p.path.segments.last()?.ident.to_string();
            // A constant's name: a local (`names[i]`) holds anything.
            let constant = name.chars().all(|c| !c.is_lowercase());
            constant.then(|| out.arrays.push(name))
        }
        e @ Expr::Path(_) => local_literals(e, env, out),
        // Another method of the type, on `self`: its values, once known.
        Expr::MethodCall(m) if m.args.is_empty() && is_self(&m.receiver) => {
            out.calls.push(m.method.to_string());
            Some(())
        }
        Expr::Macro(m) if m.mac.path.is_ident("format") => {
            let args = parse_args(&m.mac.tokens)?;
            let args: Vec<&Expr> = args.iter().collect();
            formatted_literals(&args, env, out)
        }
        _ => None,
    })
}

/// What `format!`/`write!` arguments (after the formatter) give, when the
/// format string is one literal, or only `{}`/`{name}` of a local holding
/// literals.
fn formatted_literals(args: &[&Expr], env: &Env, out: &mut Returned) -> Option<()> {
    let (
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }),
        rest,
    ) = args.split_first()?
    else {
        return None;
    };
    let format = s.value();
    match (format.as_str(), rest) {
        // A format string with an argument writes more than itself.
        (f, []) if !f.contains(['{', '}']) => {
            out.values.push(format);
            Some(())
        }
        ("{}", [arg]) => expr_literals(arg, env, out),
        (f, []) => {
            let name = f.strip_prefix('{')?.strip_suffix('}')?;
            let ident: syn::Ident = syn::parse_str(name).ok()?;
            let path = Expr::Path(syn::ExprPath {
                attrs: Vec::new(),
                qself: None,
                path: ident.into(),
            });
            local_literals(&path, env, out)
        }
        _ => None,
    }
}

/// What `e` writes to the formatter, when it can only be literals.
fn written_literals(e: &Expr, env: &Env, out: &mut Returned) -> Option<()> {
    branches(e, env, out, &written_literals, |e, out| match e {
        Expr::Macro(m) if m.mac.path.is_ident("write") => {
            let args = parse_args(&m.mac.tokens)?;
            let args: Vec<&Expr> = args.iter().collect();
            formatted_literals(args.get(1..)?, env, out)
        }
        Expr::MethodCall(m)
            if (m.method == "write_str" || m.method == "pad") && m.args.len() == 1 =>
        {
            expr_literals(&m.args[0], env, out)
        }
        // `self.code().fmt(f)`: what the receiver gives, written.
        Expr::MethodCall(m) if m.method == "fmt" && m.args.len() == 1 => {
            expr_literals(&m.receiver, env, out)
        }
        Expr::Try(t) => written_literals(&t.expr, env, out),
        _ => None,
    })
}

/// What [`peel`] hands back, but not through a method that changes the
/// value (`to_lowercase()`, `trim()`) or gives another one
/// (`unwrap_or("..")`): a value read there would not be the one returned.
fn peel_copies(mut e: &Expr) -> &Expr {
    const CHANGING: &[&str] = &[
        "to_lowercase",
        "to_ascii_lowercase",
        "trim",
        "unwrap_or",
        "unwrap_or_else",
        "unwrap_or_default",
    ];
    loop {
        if let Expr::MethodCall(m) = e
            && CHANGING.contains(&m.method.to_string().as_str())
        {
            return e;
        }
        match peel_step(e) {
            Some(inner) => e = inner,
            None => return e,
        }
    }
}

/// `match`, `if`/`else` and blocks hand each branch to `read`; an arm that
/// panics gives no value; anything else to `leaf`.
fn branches(
    e: &Expr,
    env: &Env,
    out: &mut Returned,
    read: &Reader,
    leaf: impl Fn(&Expr, &mut Returned) -> Option<()>,
) -> Option<()> {
    // `match self { .. }.to_string()`, `String::from(if .. { .. } else { .. })`.
    let copied = peel_copies(e);
    if !std::ptr::eq(copied, e) && matches!(copied, Expr::Match(_) | Expr::If(_) | Expr::Block(_)) {
        return read(copied, env, out);
    }
    match e {
        Expr::Match(m) => m.arms.iter().try_for_each(|a| read(&a.body, env, out)),
        Expr::If(i) => {
            let (_, otherwise) = i.else_branch.as_ref()?;
            tail_literals(&i.then_branch, env, out, read)?;
            read(otherwise, env, out)
        }
        Expr::Block(b) if b.block.stmts.len() == 1 => tail_literals(&b.block, env, out, read),
        Expr::Return(r) => read(r.expr.as_deref()?, env, out),
        Expr::Paren(p) => read(&p.expr, env, out),
        Expr::Macro(m)
            if m.mac
                .path
                .get_ident()
                .is_some_and(|i| DIVERGING.contains(&i.to_string().as_str())) =>
        {
            Some(())
        }
        _ => leaf(e, out),
    }
}

/// Every `return` of the body (not of its closures or nested functions)
/// gives a literal.
fn returns_literals(block: &syn::Block, out: &mut Returned) -> Option<()> {
    struct Returns<'o> {
        out: &'o mut Returned,
        ok: bool,
    }
    impl<'ast> Visit<'ast> for Returns<'_> {
        fn visit_expr_return(&mut self, r: &'ast syn::ExprReturn) {
            let value = r.expr.as_deref().and_then(|e| {
                let mut found = Returned::default();
                expr_literals(e, &Env::new(), &mut found).map(|()| found)
            });
            match value {
                Some(found) => self.out.extend(&found),
                None => self.ok = false,
            }
        }
        fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
        fn visit_item(&mut self, _: &'ast syn::Item) {}
        // A `?` returns an error: not a string.
        fn visit_expr_try(&mut self, _: &'ast syn::ExprTry) {
            self.ok = false;
        }
    }
    let mut returns = Returns { out, ok: true };
    returns.visit_block(block);
    returns.ok.then_some(())
}

/// `self`, `&self`, `(*self)`.
fn is_self(e: &Expr) -> bool {
    matches!(strip_borrows(e), Expr::Path(p) if p.path.is_ident("self"))
}

/// The one argument `format!` writes (`"{}"`, `"{name}"`), and whether it
/// writes it with `Debug` (`"{:?}"`, `"{name:?}"`): as the model reads it.
fn formatted_arg(mac: &syn::Macro) -> Option<(Expr, bool)> {
    crate::semantic::body::formatted(&parse_args(&mac.tokens)?)
}

/// Whether `attrs` derive `Debug` (`#[derive(Clone, Debug)]`,
/// `#[derive(std::fmt::Debug)]`); a `cfg_attr` is no derive of every build.
fn derives_debug(attrs: &[syn::Attribute]) -> bool {
    use syn::punctuated::Punctuated;
    attrs.iter().any(|a| {
        a.path().is_ident("derive")
            && a.parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
                .is_ok_and(|paths| {
                    (paths.iter()).any(|p| p.segments.last().is_some_and(|s| s.ident == "Debug"))
                })
    })
}
