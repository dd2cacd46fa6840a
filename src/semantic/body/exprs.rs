//! Expressions typed as far as a method call needs: calls, method calls
//! sent to their impls, and the few std methods and adaptors whose result
//! type follows from their receiver's.

use super::Walker;
use crate::semantic::Resolved;
use crate::semantic::def_map::Ns;
use crate::semantic::item_tree::ItemKind;
use crate::semantic::ty::{Ty, strip};

impl Walker<'_, '_, '_, '_> {
    /// The type of an expression, from declarations only.
    pub(super) fn ty_of(&mut self, e: &syn::Expr) -> Ty {
        match e {
            syn::Expr::Path(p) => {
                let (_, ty) = self.resolve_path(p.qself.as_ref(), &p.path, Ns::Values);
                ty
            }
            syn::Expr::Paren(p) => self.ty_of(&p.expr),
            syn::Expr::Group(g) => self.ty_of(&g.expr),
            syn::Expr::Reference(r) => Ty::Ref(Box::new(self.ty_of(&r.expr))),
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => {
                match self.ty_of(&u.expr) {
                    Ty::Ref(t) => *t,
                    t => strip(&t).clone(),
                }
            }
            syn::Expr::Try(t) => unwrap_try(&self.ty_of(&t.expr)),
            syn::Expr::Await(a) => self.ty_of(&a.base),
            syn::Expr::Cast(c) => self.lower(&c.ty),
            syn::Expr::Struct(s) => {
                let (target, _) = self.resolve_path(s.qself.as_ref(), &s.path, Ns::Types);
                self.model.ty_of_target(&target)
            }
            syn::Expr::Call(c) => self.call_ty(c),
            syn::Expr::MethodCall(m) => self.method_ty(m),
            syn::Expr::Field(f) => {
                let base = self.ty_of(&f.base);
                match (&f.member, strip(&base)) {
                    (syn::Member::Named(n), Ty::Adt(id, _)) => self
                        .model
                        .field_ty(*id, &n.to_string())
                        .map(|(t, _)| t)
                        .unwrap_or(Ty::Unknown),
                    (syn::Member::Unnamed(i), Ty::Tuple(v)) => {
                        v.get(i.index as usize).cloned().unwrap_or(Ty::Unknown)
                    }
                    (syn::Member::Unnamed(i), Ty::Adt(id, _)) => self
                        .model
                        .field_ty(*id, &i.index.to_string())
                        .map(|(t, _)| t)
                        .unwrap_or(Ty::Unknown),
                    _ => Ty::Unknown,
                }
            }
            syn::Expr::Index(i) => match strip(&self.ty_of(&i.expr)) {
                Ty::Slice(t) => (**t).clone(),
                Ty::Ext(n, args) if n == "Vec" || n == "VecDeque" => {
                    args.first().cloned().unwrap_or(Ty::Unknown)
                }
                Ty::Ext(n, args) if n.ends_with("Map") => {
                    args.get(1).cloned().unwrap_or(Ty::Unknown)
                }
                Ty::Adt(id, args) => (self.model.index_output(*id, args)).unwrap_or(Ty::Unknown),
                _ => Ty::Unknown,
            },
            syn::Expr::Block(b) => match b.block.stmts.last() {
                Some(syn::Stmt::Expr(e, None)) => self.ty_of(e),
                _ => Ty::Unknown,
            },
            syn::Expr::Tuple(t) => Ty::Tuple(t.elems.iter().map(|e| self.ty_of(e)).collect()),
            syn::Expr::Lit(l) => match &l.lit {
                syn::Lit::Str(_) => Ty::Ref(Box::new(Ty::Ext("str".into(), Vec::new()))),
                _ => Ty::Unknown,
            },
            _ => Ty::Unknown,
        }
    }

    pub(super) fn call_ty(&mut self, c: &syn::ExprCall) -> Ty {
        let syn::Expr::Path(p) = &*c.func else {
            return Ty::Unknown;
        };
        let (target, _) = self.resolve_path(p.qself.as_ref(), &p.path, Ns::Values);
        let names: Vec<String> = p
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        let arg0 = |w: &mut Self| c.args.first().map(|a| w.ty_of(a)).unwrap_or(Ty::Unknown);
        match target {
            Resolved::Item(locs) => {
                let Some(id) = locs.first().and_then(|l| self.model.item_at(l)) else {
                    // A variant: its enum.
                    return locs
                        .first()
                        .and_then(|l| self.model.enum_of_variant(l))
                        .map(|e| Ty::Adt(e, Vec::new()))
                        .unwrap_or(Ty::Unknown);
                };
                match &self.model.item(id).kind {
                    ItemKind::Fn(_) => {
                        // `T::new()`: `Self` is `T`.
                        let self_ty = if names.len() >= 2 {
                            let prefix = syn::Path {
                                leading_colon: p.path.leading_colon,
                                segments: p
                                    .path
                                    .segments
                                    .iter()
                                    .take(names.len() - 1)
                                    .cloned()
                                    .collect(),
                            };
                            let (t, ty) = self.resolve_path(None, &prefix, Ns::Types);
                            match (ty, t) {
                                (Ty::Unknown, t) => Some(self.model.ty_of_target(&t)),
                                (ty, _) => Some(ty),
                            }
                            .filter(|t| *t != Ty::Unknown)
                        } else {
                            None
                        };
                        self.model
                            .fn_ret(id, self_ty.as_ref().or(self.scope.self_ty.as_ref()))
                    }
                    ItemKind::Struct { .. } => Ty::Adt(id, Vec::new()),
                    _ => Ty::Unknown,
                }
            }
            Resolved::External => match names.as_slice() {
                [.., s] if s == "Some" => Ty::Ext("Option".into(), vec![arg0(self)]),
                [.., s] if s == "Ok" => Ty::Ext("Result".into(), vec![arg0(self)]),
                [.., w, f] if f == "new" || f == "from" => Ty::Ext(
                    w.clone(),
                    c.args.first().map(|a| self.ty_of(a)).into_iter().collect(),
                ),
                _ => Ty::Unknown,
            },
            _ => Ty::Unknown,
        }
    }

    pub(super) fn method_ty(&mut self, m: &syn::ExprMethodCall) -> Ty {
        let recv = self.ty_of(&m.receiver);
        let name = m.method.to_string();
        let (_, ids) = self.model.method_on(&recv, &name);
        if let Some(&f) = ids.first() {
            let self_ty = strip(&recv).clone();
            return self.model.fn_ret(f, Some(&self_ty));
        }
        std_method_ty(strip(&recv), &name)
    }
}

/// Adaptors of iterators and options whose closure gets the element.
pub(super) const CLOSURE_ADAPTORS: &[&str] = &[
    "map",
    "for_each",
    "filter",
    "filter_map",
    "flat_map",
    "any",
    "all",
    "find",
    "find_map",
    "position",
    "inspect",
    "take_while",
    "skip_while",
    "and_then",
    "map_or",
    "map_or_else",
    "is_some_and",
    "is_none_or",
    "unwrap_or_else",
    "max_by_key",
    "min_by_key",
];

/// `T` of `Option<T>`/`Result<T, E>` (what `?` gives).
fn unwrap_try(t: &Ty) -> Ty {
    match strip(t) {
        Ty::Ext(n, args) if n == "Option" || n == "Result" => {
            args.first().cloned().unwrap_or(Ty::Unknown)
        }
        _ => Ty::Unknown,
    }
}

/// What a few std methods return, enough for chains through wrappers.
fn std_method_ty(recv: &Ty, name: &str) -> Ty {
    // std's `ToString`, whatever the receiver.
    if name == "to_string" {
        return Ty::Ext("String".into(), Vec::new());
    }
    let Ty::Ext(n, args) = recv else {
        return match name {
            "clone" | "to_owned" => recv.clone(),
            _ => Ty::Unknown,
        };
    };
    let first = || args.first().cloned().unwrap_or(Ty::Unknown);
    match (n.as_str(), name) {
        (
            "Option" | "Result",
            "unwrap" | "expect" | "unwrap_or" | "unwrap_or_default" | "unwrap_or_else"
            | "unwrap_unchecked",
        ) => first(),
        ("Result", "ok") => Ty::Ext("Option".into(), vec![first()]),
        ("Option", "as_ref" | "as_mut" | "take" | "cloned" | "copied" | "as_deref") => {
            Ty::Ext("Option".into(), vec![first()])
        }
        ("Mutex", "lock") => Ty::Ext(
            "Result".into(),
            vec![Ty::Ext("MutexGuard".into(), vec![first()])],
        ),
        ("RwLock", "read") => Ty::Ext(
            "Result".into(),
            vec![Ty::Ext("RwLockReadGuard".into(), vec![first()])],
        ),
        ("RwLock", "write") => Ty::Ext(
            "Result".into(),
            vec![Ty::Ext("RwLockWriteGuard".into(), vec![first()])],
        ),
        ("RefCell", "borrow") => Ty::Ext("Ref".into(), vec![first()]),
        ("RefCell", "borrow_mut") => Ty::Ext("RefMut".into(), vec![first()]),
        (
            "Vec" | "VecDeque" | "HashSet" | "BTreeSet",
            "iter" | "iter_mut" | "into_iter" | "drain",
        ) => Ty::Ext("Iter".into(), vec![first()]),
        ("HashMap" | "BTreeMap", "values" | "values_mut" | "into_values") => Ty::Ext(
            "Iter".into(),
            vec![args.get(1).cloned().unwrap_or(Ty::Unknown)],
        ),
        (
            "Vec" | "VecDeque",
            "first" | "last" | "get" | "get_mut" | "pop" | "first_mut" | "last_mut",
        ) => Ty::Ext("Option".into(), vec![first()]),
        ("HashMap" | "BTreeMap", "get" | "get_mut" | "remove") => Ty::Ext(
            "Option".into(),
            vec![args.get(1).cloned().unwrap_or(Ty::Unknown)],
        ),
        ("Iter", "next" | "last" | "find" | "min" | "max") => {
            Ty::Ext("Option".into(), vec![first()])
        }
        ("Iter", "filter" | "rev" | "skip" | "take" | "cloned" | "copied" | "peekable") => {
            recv.clone()
        }
        (_, "clone" | "to_owned") => recv.clone(),
        _ => Ty::Unknown,
    }
}

/// The element type a `for` loop binds.
pub(super) fn elem_ty(t: &Ty) -> Ty {
    match strip(t) {
        Ty::Slice(e) => (**e).clone(),
        Ty::Ext(n, args)
            if matches!(
                n.as_str(),
                "Vec" | "VecDeque" | "HashSet" | "BTreeSet" | "Iter" | "Option"
            ) =>
        {
            args.first().cloned().unwrap_or(Ty::Unknown)
        }
        _ => Ty::Unknown,
    }
}
