//! Function bodies and item signatures resolved: local scopes (`let`,
//! patterns, closure parameters, shadowing), generic parameters, `Self`,
//! paths, and method calls sent to their impls through declared types
//! ([`super::ty`]). A body is re-parsed from the text the model holds, on
//! demand: nothing of it is kept.

use std::ops::Range;

use syn::spanned::Spanned;
use syn::visit::{self, Visit};

use super::def_map::{Def, ModuleId, Ns, PathRes};
use super::item_tree::{ItemKind, type_ref};
use super::ty::{Ty, TyScope, strip};
use super::{FileIdx, ItemId, ItemLoc, Model, RefKind, Reference, Resolved, Why};
use crate::syntax::parse::{LineTable, parse_file_with};

/// Every reference of every file of the model.
pub fn all_references(model: &Model) -> Vec<Reference> {
    let mut out = Vec::new();
    // A file several crates read (a package's `tests/common/mod.rs`) is
    // reported once, as the first crate reaching it reads it.
    let mut done = std::collections::HashSet::new();
    for f in 0..model.files.len() as FileIdx {
        let file = &model.files[f as usize];
        if !model.def_map.module_of_scope.contains_key(&(f, 0)) {
            continue;
        }
        if !done.insert(&file.path) {
            continue;
        }
        file_references(model, f, &mut out);
        proc_macro2::extra::invalidate_current_thread_spans();
    }
    out
}

/// The references of one file: its items' signatures and bodies.
pub fn file_references(model: &Model, f: FileIdx, out: &mut Vec<Reference>) {
    let file = &model.files[f as usize];
    if file.tree.error.is_some() {
        return;
    }
    // A file no module of its crate reaches is not compiled.
    if model.def_map.module_at(f, &file.tree, 0).is_none() {
        return;
    }
    let lines = LineTable::new(&file.text);
    let _ = parse_file_with(&file.text, |input| {
        let mut w = Walker::new(model, f, &lines, out);
        syn::Attribute::parse_inner(input)?;
        while !input.is_empty() {
            let item: syn::Item = input.parse()?;
            w.top_item(&item);
        }
        Ok(())
    });
}

/// A name a block declares as an item (`fn helper() {}` inside a body).
#[derive(Clone)]
struct BlockItem {
    name: String,
    target: Resolved,
    ns: Ns,
}

struct Walker<'m, 'l, 't, 'o> {
    model: &'m Model,
    file: FileIdx,
    lines: &'l LineTable<'t>,
    out: &'o mut Vec<Reference>,
    scope: TyScope,
    locals: Vec<(String, Ty)>,
    block_items: Vec<BlockItem>,
    /// Bodies entered: an item inside one is a block's item.
    depth: usize,
    /// The type a closure given next gets for its first parameter: the
    /// element of the iterator or option whose adaptor it is given to.
    closure_hint: Option<Ty>,
}

impl<'m, 'l, 't, 'o> Walker<'m, 'l, 't, 'o> {
    fn new(
        model: &'m Model,
        file: FileIdx,
        lines: &'l LineTable<'t>,
        out: &'o mut Vec<Reference>,
    ) -> Self {
        Walker {
            model,
            file,
            lines,
            out,
            scope: TyScope::default(),
            locals: Vec::new(),
            block_items: Vec::new(),
            depth: 0,
            closure_hint: None,
        }
    }

    fn range(&self, span: proc_macro2::Span) -> Range<usize> {
        self.lines.range(span)
    }

    fn push_ref(&mut self, range: Range<usize>, kind: RefKind, target: Resolved) {
        self.out.push(Reference {
            file: self.model.files[self.file as usize].path.clone(),
            range,
            kind,
            target,
        });
    }

    /// The item of the item tree whose name is at `range` (an item outside
    /// bodies).
    fn tree_item(&self, name: Range<usize>) -> Option<ItemId> {
        let tree = &self.model.files[self.file as usize].tree;
        let &idx = tree.by_name_start.get(&name.start)?;
        Some(ItemId {
            file: self.file,
            idx,
        })
    }

    fn top_item(&mut self, item: &syn::Item) {
        let tree = &self.model.files[self.file as usize].tree;
        let start = self.range(item.span()).start;
        let Some(m) = self.model.def_map.module_at(self.file, tree, start) else {
            return;
        };
        self.scope = TyScope {
            module: m,
            ..TyScope::default()
        };
        self.visit_item(item);
    }

    fn generics(&mut self, g: &syn::Generics) {
        let lines = self.lines;
        let tree_generics = super::item_tree::generics(lines, g);
        let more = self.model.generic_scope(self.scope.module, &tree_generics);
        self.scope.generics.extend(more);
        visit::visit_generics(self, g);
    }

    fn bind(&mut self, name: &str, ty: Ty) {
        self.locals.push((name.to_string(), ty));
    }

    fn local(&self, name: &str) -> Option<&Ty> {
        self.locals
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t)
    }

    fn lower(&self, t: &syn::Type) -> Ty {
        self.model.lower(&type_ref(self.lines, t), &self.scope, 0)
    }

    /// Names the items of a block declare, before its statements are
    /// walked (an item is visible in its whole block).
    fn declare_block_items(&mut self, stmts: &[syn::Stmt]) {
        for s in stmts {
            let syn::Stmt::Item(item) = s else { continue };
            let (ident, ns) = match item {
                syn::Item::Fn(f) => (&f.sig.ident, Ns::Values),
                syn::Item::Const(c) => (&c.ident, Ns::Values),
                syn::Item::Static(s) => (&s.ident, Ns::Values),
                syn::Item::Struct(s) => (&s.ident, Ns::Types),
                syn::Item::Enum(e) => (&e.ident, Ns::Types),
                syn::Item::Trait(t) => (&t.ident, Ns::Types),
                syn::Item::Type(t) => (&t.ident, Ns::Types),
                syn::Item::Mod(m) => (&m.ident, Ns::Types),
                syn::Item::Use(u) => {
                    self.declare_block_use(&u.tree, &mut Vec::new(), u.leading_colon.is_some());
                    continue;
                }
                syn::Item::Macro(m) if m.mac.path.is_ident("macro_rules") => match &m.ident {
                    Some(ident) => (ident, Ns::Macros),
                    None => continue,
                },
                _ => continue,
            };
            let loc = ItemLoc {
                file: self.model.files[self.file as usize].path.clone(),
                name: self.range(ident.span()),
            };
            self.block_items.push(BlockItem {
                name: ident.to_string(),
                target: Resolved::Item(vec![loc]),
                ns,
            });
        }
    }

    fn declare_block_use(&mut self, tree: &syn::UseTree, prefix: &mut Vec<String>, global: bool) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.declare_block_use(&p.tree, prefix, global);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let mut path = prefix.clone();
                path.push(n.ident.to_string());
                let name = n.ident.to_string();
                self.declare_use_leaf(&path, name, global);
            }
            syn::UseTree::Rename(r) => {
                let mut path = prefix.clone();
                path.push(r.ident.to_string());
                self.declare_use_leaf(&path, r.rename.to_string(), global);
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.declare_block_use(t, prefix, global);
                }
            }
            syn::UseTree::Glob(_) => {}
        }
    }

    fn declare_use_leaf(&mut self, path: &[String], name: String, global: bool) {
        let names: Vec<&str> = path.iter().map(String::as_str).collect();
        for ns in [Ns::Types, Ns::Values] {
            let target = self.resolve_module_path(&names, global, ns);
            if !matches!(target, Resolved::Unresolved(_)) {
                self.block_items.push(BlockItem {
                    name: name.clone(),
                    target,
                    ns,
                });
            }
        }
    }

    fn resolve_module_path(&self, names: &[&str], global: bool, ns: Ns) -> Resolved {
        match self
            .model
            .def_map
            .resolve_names(self.scope.module, names, global, ns)
        {
            Ok(PathRes { def, consumed }) if consumed == names.len() => self.model.def_target(def),
            Ok(PathRes {
                def: Def::Item(id),
                consumed,
            }) if consumed + 1 == names.len() => self.model.assoc_of_item(id, names[consumed]),
            Ok(PathRes {
                def: Def::External, ..
            }) => Resolved::External,
            Ok(_) => Resolved::Unresolved(Why::AssocNotFound),
            Err(why) => Resolved::Unresolved(why),
        }
    }

    /// What a path names, and the type of its value when known.
    fn resolve_path(
        &mut self,
        qself: Option<&syn::QSelf>,
        path: &syn::Path,
        ns: Ns,
    ) -> (Resolved, Ty) {
        let names: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        if let Some(q) = qself {
            let ty = self.lower(&q.ty);
            let Some(last) = names.last() else {
                return (Resolved::Unresolved(Why::NotFound), Ty::Unknown);
            };
            if q.position > 0 {
                // `<T as Trait>::m`: the impl of Trait for T if T is a type
                // of the inputs, else the trait's item and its impls.
                let trait_names = &names[..q.position];
                let tr = self.model.def_map.resolve_names(
                    self.scope.module,
                    trait_names,
                    path.leading_colon.is_some(),
                    Ns::Types,
                );
                if let Ok(PathRes {
                    def: Def::Item(t), ..
                }) = tr
                {
                    if let Ty::Adt(adt, _) = strip(&ty) {
                        let found: Vec<ItemId> = (self.model.adt_assoc(*adt, last).into_iter())
                            .filter(|m| self.in_impl_of(*m, t))
                            .collect();
                        if !found.is_empty() {
                            return (self.model.located(found, Why::AssocNotFound), Ty::Unknown);
                        }
                    }
                    return (self.model.assoc_of_item(t, last), Ty::Unknown);
                }
                return (Resolved::External, Ty::Unknown);
            }
            return (self.model.assoc_of_ty(&ty, last), Ty::Unknown);
        }
        let global = path.leading_colon.is_some();
        match names.as_slice() {
            [] => (Resolved::Unresolved(Why::NotFound), Ty::Unknown),
            [one] if !global => {
                if ns == Ns::Values
                    && let Some(t) = self.local(one)
                {
                    return (Resolved::Local, t.clone());
                }
                if *one == "Self" {
                    let ty = self.scope.self_ty.clone().unwrap_or(Ty::Unknown);
                    let target = match &ty {
                        Ty::Adt(id, _) => Resolved::Item(vec![self.model.loc(*id)]),
                        Ty::Bounded(t, _) if t.len() == 1 => {
                            Resolved::Item(vec![self.model.loc(t[0])])
                        }
                        // `impl Trait for f32`, `for Vec<T>`, `for [T]`.
                        Ty::Ext(..) | Ty::Slice(_) | Ty::Tuple(_) | Ty::Ref(_) => {
                            Resolved::External
                        }
                        _ => Resolved::Unresolved(Why::NotFound),
                    };
                    return (target, ty);
                }
                if let Some((_, traits, outside)) =
                    self.scope.generics.iter().rev().find(|g| g.0 == *one)
                {
                    return (Resolved::Local, Ty::Bounded(traits.clone(), *outside));
                }
                if let Some(b) = self
                    .block_items
                    .iter()
                    .rev()
                    .find(|b| b.name == *one && b.ns == ns)
                {
                    return (b.target.clone(), Ty::Unknown);
                }
                let r = self
                    .model
                    .def_map
                    .resolve_names(self.scope.module, &names, false, ns);
                self.model.path_res(r, &names)
            }
            [first, rest @ ..] if !global && rest.len() == 1 => {
                let last = rest[0];
                let base = if *first == "Self" {
                    self.scope.self_ty.clone()
                } else {
                    (self.scope.generics.iter().rev())
                        .find(|g| g.0 == *first)
                        .map(|(_, t, o)| Ty::Bounded(t.clone(), *o))
                };
                if let Some(ty) = base {
                    let r = self.model.assoc_of_ty(&ty, last);
                    return (r, Ty::Unknown);
                }
                if self.block_items.iter().any(|b| b.name == *first) {
                    return (Resolved::Unresolved(Why::NotFound), Ty::Unknown);
                }
                let r = self
                    .model
                    .def_map
                    .resolve_names(self.scope.module, &names, false, ns);
                self.model.path_res(r, &names)
            }
            _ => {
                if self.block_items.iter().any(|b| b.name == names[0]) {
                    return (Resolved::Unresolved(Why::NotFound), Ty::Unknown);
                }
                let r = self
                    .model
                    .def_map
                    .resolve_names(self.scope.module, &names, global, ns);
                self.model.path_res(r, &names)
            }
        }
    }

    fn in_impl_of(&self, member: ItemId, tr: ItemId) -> bool {
        let Some(c) = self.model.item(member).container else {
            return false;
        };
        let c = ItemId {
            file: member.file,
            idx: c,
        };
        c == tr || self.model.def_map.impls.trait_of.get(&c) == Some(&tr)
    }

    /// References of the segments before the last that name types
    /// (`Foo` in `Foo::new`).
    fn prefix_refs(&mut self, path: &syn::Path) {
        let n = path.segments.len();
        if n < 2 {
            for seg in &path.segments {
                self.visit_path_arguments(&seg.arguments);
            }
            return;
        }
        let seg = &path.segments[n - 2];
        let prefix = syn::Path {
            leading_colon: path.leading_colon,
            segments: path.segments.iter().take(n - 1).cloned().collect(),
        };
        let (target, _) = self.resolve_path(None, &prefix, Ns::Types);
        let is_type = match &target {
            Resolved::Item(locs) => locs.first().is_some_and(|l| self.model.is_type_loc(l)),
            _ => false,
        };
        if is_type {
            let range = self.range(seg.ident.span());
            self.push_ref(range, RefKind::Type, target);
        }
        for seg in &path.segments {
            self.visit_path_arguments(&seg.arguments);
        }
    }

    fn path_ref(&mut self, qself: Option<&syn::QSelf>, path: &syn::Path, kind: RefKind) -> Ty {
        let ns = if kind == RefKind::Type {
            Ns::Types
        } else {
            Ns::Values
        };
        let (target, ty) = self.resolve_path(qself, path, ns);
        if let Some(q) = qself {
            self.visit_type(&q.ty);
        }
        self.prefix_refs(path);
        if let Some(last) = path.segments.last() {
            let range = self.range(last.ident.span());
            self.push_ref(range, kind, target);
        }
        ty
    }

    /// The type of an expression, from declarations only.
    fn ty_of(&mut self, e: &syn::Expr) -> Ty {
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

    fn call_ty(&mut self, c: &syn::ExprCall) -> Ty {
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

    fn method_ty(&mut self, m: &syn::ExprMethodCall) -> Ty {
        let recv = self.ty_of(&m.receiver);
        let name = m.method.to_string();
        let (_, ids) = self.model.method_on(&recv, &name);
        if let Some(&f) = ids.first() {
            let self_ty = strip(&recv).clone();
            return self.model.fn_ret(f, Some(&self_ty));
        }
        std_method_ty(strip(&recv), &name)
    }

    /// Bind a pattern's names, `ty` being the matched value's type.
    fn bind_pat(&mut self, pat: &syn::Pat, ty: Ty) {
        match pat {
            syn::Pat::Ident(i) => {
                let name = i.ident.to_string();
                // An ident pattern that names a unit struct, a unit variant
                // or a const is a path, not a binding.
                if i.subpat.is_none() && i.by_ref.is_none() && i.mutability.is_none() {
                    let path = syn::Path::from(i.ident.clone());
                    let (target, _) = self.resolve_path(None, &path, Ns::Values);
                    if let Resolved::Item(locs) = &target
                        && locs.first().is_some_and(|l| self.model.is_pattern_const(l))
                    {
                        let range = self.range(i.ident.span());
                        self.push_ref(range, RefKind::Path, target);
                        return;
                    }
                    if target == Resolved::External && matches!(name.as_str(), "None") {
                        let range = self.range(i.ident.span());
                        self.push_ref(range, RefKind::Path, Resolved::External);
                        return;
                    }
                }
                if let Some((_, sub)) = &i.subpat {
                    self.bind_pat(sub, ty.clone());
                }
                self.bind(&name, ty);
            }
            syn::Pat::Type(t) => {
                self.visit_type(&t.ty);
                let ty = self.lower(&t.ty);
                self.bind_pat(&t.pat, ty);
            }
            syn::Pat::Reference(r) => {
                let inner = match ty {
                    Ty::Ref(t) => *t,
                    _ => Ty::Unknown,
                };
                self.bind_pat(&r.pat, inner);
            }
            syn::Pat::Paren(p) => self.bind_pat(&p.pat, ty),
            syn::Pat::Tuple(t) => {
                let tys = match strip(&ty) {
                    Ty::Tuple(v) => v.clone(),
                    _ => Vec::new(),
                };
                for (i, p) in t.elems.iter().enumerate() {
                    self.bind_pat(p, tys.get(i).cloned().unwrap_or(Ty::Unknown));
                }
            }
            syn::Pat::TupleStruct(ts) => {
                self.path_ref(ts.qself.as_ref(), &ts.path, RefKind::Path);
                let last = ts.path.segments.last().map(|s| s.ident.to_string());
                let inner = match (last.as_deref(), strip(&ty)) {
                    (Some("Some" | "Ok"), Ty::Ext(_, args)) => {
                        args.first().cloned().unwrap_or(Ty::Unknown)
                    }
                    (Some("Err"), Ty::Ext(_, args)) => args.get(1).cloned().unwrap_or(Ty::Unknown),
                    _ => Ty::Unknown,
                };
                let (target, _) = self.resolve_path(ts.qself.as_ref(), &ts.path, Ns::Values);
                for (i, p) in ts.elems.iter().enumerate() {
                    let t = if i == 0 && inner != Ty::Unknown {
                        inner.clone()
                    } else {
                        self.model.positional_field_ty(&target, i)
                    };
                    self.bind_pat(p, t);
                }
            }
            syn::Pat::Struct(s) => {
                self.path_ref(s.qself.as_ref(), &s.path, RefKind::Type);
                let (target, _) = self.resolve_path(s.qself.as_ref(), &s.path, Ns::Types);
                for fp in &s.fields {
                    let (fty, loc) = match &fp.member {
                        syn::Member::Named(n) => {
                            match self.model.field_of_target(&target, &n.to_string()) {
                                Some((t, l)) => (t, Some(l)),
                                None => (Ty::Unknown, None),
                            }
                        }
                        _ => (Ty::Unknown, None),
                    };
                    if let syn::Member::Named(n) = &fp.member {
                        let range = self.range(n.span());
                        let target = loc
                            .map(|l| Resolved::Item(vec![l]))
                            .unwrap_or(Resolved::Unresolved(Why::NotFound));
                        self.push_ref(range, RefKind::Field, target);
                    }
                    self.bind_pat(&fp.pat, fty);
                }
            }
            syn::Pat::Path(p) => {
                self.path_ref(p.qself.as_ref(), &p.path, RefKind::Path);
            }
            syn::Pat::Or(o) => {
                for c in &o.cases {
                    self.bind_pat(c, ty.clone());
                }
            }
            syn::Pat::Slice(s) => {
                let elem = match strip(&ty) {
                    Ty::Slice(t) => (**t).clone(),
                    Ty::Ext(n, a) if n == "Vec" => a.first().cloned().unwrap_or(Ty::Unknown),
                    _ => Ty::Unknown,
                };
                for p in &s.elems {
                    self.bind_pat(p, elem.clone());
                }
            }
            syn::Pat::Guard(g) => {
                self.bind_pat(&g.pat, ty);
                self.visit_expr(&g.guard);
            }
            _ => visit::visit_pat(self, pat),
        }
    }

    /// A fn's parameters bound and its body walked, in a scope of its own.
    fn fn_body(&mut self, sig: &syn::Signature, block: Option<&syn::Block>) {
        let saved_scope = self.scope.clone();
        let saved_locals = std::mem::take(&mut self.locals);
        let saved_items = self.block_items.len();
        self.generics(&sig.generics);
        for arg in &sig.inputs {
            match arg {
                syn::FnArg::Receiver(r) => {
                    let self_ty = self.scope.self_ty.clone().unwrap_or(Ty::Unknown);
                    if let syn::ReceiverKind::Typed(_, t) = &r.kind {
                        self.visit_type(t);
                    }
                    self.bind("self", self_ty);
                }
                syn::FnArg::Typed(pt) => {
                    self.visit_type(&pt.ty);
                    let ty = self.lower(&pt.ty);
                    self.bind_pat(&pt.pat, ty);
                }
            }
        }
        if let syn::ReturnType::Type(_, t) = &sig.output {
            self.visit_type(t);
        }
        if let Some(b) = block {
            self.depth += 1;
            self.visit_block(b);
            self.depth -= 1;
        }
        self.block_items.truncate(saved_items);
        self.locals = saved_locals;
        self.scope = saved_scope;
    }

    fn macro_ref(&mut self, mac: &syn::Macro) {
        let Some(last) = mac.path.segments.last() else {
            return;
        };
        let name = last.ident.to_string();
        let range = self.range(last.ident.span());
        let in_block = (self.block_items.iter().rev())
            .find(|b| b.ns == Ns::Macros && b.name == name)
            .map(|b| b.target.clone());
        let target = if let Some(t) = in_block
            && mac.path.segments.len() == 1
        {
            t
        } else if mac.path.segments.len() == 1 {
            let legacy = self
                .model
                .def_map
                .legacy_macro(self.scope.module, &name, range.start);
            match legacy {
                Some(id) => Resolved::Item(vec![self.model.loc(id)]),
                None => match self
                    .model
                    .def_map
                    .resolve_first(self.scope.module, &name, Ns::Macros)
                {
                    Ok(def) => self.model.def_target(def),
                    Err(_) if STD_MACROS.contains(&name.as_str()) => Resolved::External,
                    Err(Why::UnresolvedGlob) => Resolved::Unresolved(Why::UnresolvedGlob),
                    Err(_) => Resolved::Unresolved(Why::MacroNotFound),
                },
            }
        } else {
            let names: Vec<String> = mac
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            self.resolve_module_path(&names, mac.path.leading_colon.is_some(), Ns::Macros)
        };
        self.push_ref(range, RefKind::Macro, target);
        if name == "macro_rules" {
            return;
        }
        // The arguments of a macro, when they read as expressions
        // (`format!`, `vec!`, `assert_eq!`): walked as such.
        use syn::parse::Parser;
        let parser = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
        if let Ok(args) = parser.parse2(mac.tokens.clone()) {
            for a in &args {
                self.visit_expr(a);
            }
        } else {
            let semi = syn::punctuated::Punctuated::<syn::Expr, syn::Token![;]>::parse_terminated;
            if let Ok(args) = semi.parse2(mac.tokens.clone()) {
                for a in &args {
                    self.visit_expr(a);
                }
            }
        }
    }

    fn use_refs(&mut self, tree: &syn::UseTree, prefix: &mut Vec<String>, global: bool) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                // Each segment before the last names something too
                // (`Device` in `use m::Device::Cpu`, `Value` in `Value::*`).
                if !matches!(p.ident.to_string().as_str(), "crate" | "self" | "super") {
                    let names: Vec<&str> = prefix.iter().map(String::as_str).collect();
                    let target = self.resolve_module_path(&names, global, Ns::Types);
                    let range = self.range(p.ident.span());
                    self.push_ref(range, RefKind::Import, target);
                }
                self.use_refs(&p.tree, prefix, global);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let mut path = prefix.clone();
                if n.ident != "self" {
                    path.push(n.ident.to_string());
                }
                let range = self.range(n.ident.span());
                self.use_leaf(&path, range, global);
            }
            syn::UseTree::Rename(r) => {
                let mut path = prefix.clone();
                if r.ident != "self" {
                    path.push(r.ident.to_string());
                }
                let range = self.range(r.ident.span());
                self.use_leaf(&path, range, global);
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_refs(t, prefix, global);
                }
            }
            syn::UseTree::Glob(_) => {}
        }
    }

    fn use_leaf(&mut self, path: &[String], range: Range<usize>, global: bool) {
        let names: Vec<&str> = path.iter().map(String::as_str).collect();
        let mut locs: Vec<ItemLoc> = Vec::new();
        let mut other = None;
        for ns in [Ns::Types, Ns::Values, Ns::Macros] {
            match self.resolve_module_path(&names, global, ns) {
                Resolved::Item(l) => {
                    for x in l {
                        if !locs.contains(&x) {
                            locs.push(x);
                        }
                    }
                }
                r => {
                    if other.is_none() || r == Resolved::External {
                        other = Some(r);
                    }
                }
            }
        }
        let target = if !locs.is_empty() {
            Resolved::Item(locs)
        } else {
            other.unwrap_or(Resolved::Unresolved(Why::NotFound))
        };
        self.push_ref(range, RefKind::Import, target);
    }
}

/// Adaptors of iterators and options whose closure gets the element.
const CLOSURE_ADAPTORS: &[&str] = &[
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

/// Macros of std used by name.
const STD_MACROS: &[&str] = &[
    "println",
    "print",
    "eprintln",
    "eprint",
    "format",
    "write",
    "writeln",
    "vec",
    "panic",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "unreachable",
    "unimplemented",
    "todo",
    "matches",
    "format_args",
    "concat",
    "stringify",
    "include_str",
    "include_bytes",
    "include",
    "env",
    "option_env",
    "cfg",
    "line",
    "file",
    "column",
    "module_path",
    "compile_error",
    "dbg",
    "thread_local",
    "macro_rules",
    "try",
    "concat_idents",
    "trace_macros",
    "log_syntax",
    "const_format_args",
    "addr_of",
    "addr_of_mut",
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
fn elem_ty(t: &Ty) -> Ty {
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

impl<'ast> Visit<'ast> for Walker<'_, '_, '_, '_> {
    fn visit_item(&mut self, i: &'ast syn::Item) {
        // Items in a body: resolved in the body's module (block modules
        // are not modelled), without the body's locals.
        let saved = std::mem::take(&mut self.locals);
        visit::visit_item(self, i);
        self.locals = saved;
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        let Some((_, items)) = &m.content else {
            return;
        };
        let saved = self.scope.clone();
        if self.depth == 0 {
            let tree = &self.model.files[self.file as usize].tree;
            for item in items {
                let start = self.range(item.span()).start;
                if let Some(module) = self.model.def_map.module_at(self.file, tree, start) {
                    self.scope = TyScope {
                        module,
                        ..TyScope::default()
                    };
                }
                self.visit_item(item);
            }
        } else {
            for item in items {
                self.visit_item(item);
            }
        }
        self.scope = saved;
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.fn_body(&f.sig, Some(&f.block));
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.fn_body(&f.sig, Some(&f.block));
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        self.fn_body(&f.sig, f.default.as_ref());
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        let saved = self.scope.clone();
        self.generics(&i.generics);
        self.visit_type(&i.self_ty);
        if let Some((p, _)) = &i.trait_ {
            self.path_ref(None, p, RefKind::Type);
        }
        self.scope.self_ty = Some(self.lower(&i.self_ty));
        for item in &i.items {
            self.visit_impl_item(item);
        }
        self.scope = saved;
    }

    fn visit_item_trait(&mut self, t: &'ast syn::ItemTrait) {
        let saved = self.scope.clone();
        self.generics(&t.generics);
        for b in &t.supertraits {
            self.visit_type_param_bound(b);
        }
        let range = self.range(t.ident.span());
        let this = if self.depth == 0 {
            self.tree_item(range)
        } else {
            None
        };
        self.scope.self_ty = Some(match this {
            Some(id) => Ty::Bounded(vec![id], false),
            None => Ty::Unknown,
        });
        for item in &t.items {
            self.visit_trait_item(item);
        }
        self.scope = saved;
    }

    fn visit_item_struct(&mut self, s: &'ast syn::ItemStruct) {
        let saved = self.scope.clone();
        self.generics(&s.generics);
        self.visit_fields(&s.fields);
        self.scope = saved;
    }

    fn visit_item_enum(&mut self, e: &'ast syn::ItemEnum) {
        let saved = self.scope.clone();
        self.generics(&e.generics);
        for v in &e.variants {
            self.visit_fields(&v.fields);
            if let Some((_, d)) = &v.discriminant {
                self.visit_expr(d);
            }
        }
        self.scope = saved;
    }

    fn visit_item_type(&mut self, t: &'ast syn::ItemType) {
        let saved = self.scope.clone();
        self.generics(&t.generics);
        self.visit_type(&t.ty);
        self.scope = saved;
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        if self.depth > 0 {
            return self.use_refs(&u.tree, &mut Vec::new(), u.leading_colon.is_some());
        }
        self.use_refs(&u.tree, &mut Vec::new(), u.leading_colon.is_some());
    }

    fn visit_item_macro(&mut self, m: &'ast syn::ItemMacro) {
        if m.mac.path.is_ident("macro_rules") {
            return;
        }
        self.macro_ref(&m.mac);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.macro_ref(m);
    }

    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}

    fn visit_block(&mut self, b: &'ast syn::Block) {
        let locals = self.locals.len();
        let items = self.block_items.len();
        self.declare_block_items(&b.stmts);
        for s in &b.stmts {
            self.visit_stmt(s);
        }
        self.block_items.truncate(items);
        self.locals.truncate(locals);
    }

    fn visit_local(&mut self, l: &'ast syn::Local) {
        let mut ty = Ty::Unknown;
        if let Some(init) = &l.init {
            self.visit_expr(&init.expr);
            ty = self.ty_of(&init.expr);
            if let Some((_, d)) = &init.diverge {
                self.visit_expr(d);
            }
        }
        self.bind_pat(&l.pat, ty);
    }

    fn visit_expr_closure(&mut self, c: &'ast syn::ExprClosure) {
        let locals = self.locals.len();
        let mut hint = self.closure_hint.take();
        for p in &c.inputs {
            self.bind_pat(p, hint.take().unwrap_or(Ty::Unknown));
        }
        if let syn::ReturnType::Type(_, t) = &c.output {
            self.visit_type(t);
        }
        self.visit_expr(&c.body);
        self.locals.truncate(locals);
    }

    fn visit_expr_if(&mut self, i: &'ast syn::ExprIf) {
        let locals = self.locals.len();
        self.visit_expr(&i.cond);
        self.visit_block(&i.then_branch);
        self.locals.truncate(locals);
        if let Some((_, e)) = &i.else_branch {
            self.visit_expr(e);
        }
    }

    fn visit_expr_while(&mut self, w: &'ast syn::ExprWhile) {
        let locals = self.locals.len();
        self.visit_expr(&w.cond);
        self.visit_block(&w.body);
        self.locals.truncate(locals);
    }

    fn visit_expr_let(&mut self, l: &'ast syn::ExprLet) {
        self.visit_expr(&l.expr);
        let ty = self.ty_of(&l.expr);
        self.bind_pat(&l.pat, ty);
    }

    fn visit_expr_match(&mut self, m: &'ast syn::ExprMatch) {
        self.visit_expr(&m.expr);
        let ty = self.ty_of(&m.expr);
        for arm in &m.arms {
            let locals = self.locals.len();
            self.bind_pat(&arm.pat, ty.clone());
            self.visit_expr(&arm.body);
            self.locals.truncate(locals);
        }
    }

    fn visit_expr_for_loop(&mut self, f: &'ast syn::ExprForLoop) {
        self.visit_expr(&f.expr);
        let ty = elem_ty(&self.ty_of(&f.expr));
        let locals = self.locals.len();
        self.bind_pat(&f.pat, ty);
        self.visit_block(&f.body);
        self.locals.truncate(locals);
    }

    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        match &*c.func {
            syn::Expr::Path(p) => {
                self.path_ref(p.qself.as_ref(), &p.path, RefKind::Call);
            }
            other => self.visit_expr(other),
        }
        for a in &c.args {
            self.visit_expr(a);
        }
    }

    fn visit_expr_path(&mut self, p: &'ast syn::ExprPath) {
        self.path_ref(p.qself.as_ref(), &p.path, RefKind::Path);
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        self.visit_expr(&m.receiver);
        if let Some(t) = &m.turbofish {
            self.visit_angle_bracketed_generic_arguments(t);
        }
        let recv = self.ty_of(&m.receiver);
        let method = m.method.to_string();
        let elem = match strip(&recv) {
            Ty::Ext(n, args)
                if matches!(n.as_str(), "Iter" | "Option")
                    && CLOSURE_ADAPTORS.contains(&method.as_str()) =>
            {
                args.first().cloned()
            }
            _ => None,
        };
        for a in &m.args {
            if matches!(a, syn::Expr::Closure(_)) {
                self.closure_hint = elem.clone();
            }
            self.visit_expr(a);
            self.closure_hint = None;
        }
        let (target, _) = self.model.method_on(&recv, &method);
        let range = self.range(m.method.span());
        self.push_ref(range, RefKind::MethodCall, target);
    }

    fn visit_expr_struct(&mut self, s: &'ast syn::ExprStruct) {
        let (target, _) = self.resolve_path(s.qself.as_ref(), &s.path, Ns::Types);
        let is_variant = match &target {
            Resolved::Item(l) => l.first().is_some_and(|l| self.model.item_at(l).is_none()),
            _ => false,
        };
        let kind = if is_variant {
            RefKind::Path
        } else {
            RefKind::Type
        };
        self.path_ref(s.qself.as_ref(), &s.path, kind);
        let known = matches!(target, Resolved::Item(_));
        for fv in &s.fields {
            if let syn::Member::Named(n) = &fv.member
                && known
            {
                let range = self.range(n.span());
                let target = match self.model.field_of_target(&target, &n.to_string()) {
                    Some((_, loc)) => Resolved::Item(vec![loc]),
                    None => Resolved::Unresolved(Why::NotFound),
                };
                self.push_ref(range, RefKind::Field, target);
            }
            self.visit_expr(&fv.expr);
        }
        if let Some(r) = &s.rest {
            self.visit_expr(r);
        }
    }

    fn visit_expr_field(&mut self, f: &'ast syn::ExprField) {
        self.visit_expr(&f.base);
        let syn::Member::Named(n) = &f.member else {
            return;
        };
        let base = self.ty_of(&f.base);
        let target = match strip(&base) {
            Ty::Adt(id, _) => match self.model.field_ty(*id, &n.to_string()) {
                Some((_, loc)) => Resolved::Item(vec![loc]),
                None => Resolved::Unresolved(Why::NotFound),
            },
            Ty::Unknown => Resolved::Unresolved(Why::UnknownReceiver),
            Ty::Bounded(..) => Resolved::Unresolved(Why::NotFound),
            _ => Resolved::External,
        };
        let range = self.range(n.span());
        self.push_ref(range, RefKind::Field, target);
    }

    fn visit_type_path(&mut self, t: &'ast syn::TypePath) {
        self.path_ref(t.qself.as_ref(), &t.path, RefKind::Type);
    }

    fn visit_trait_bound(&mut self, b: &'ast syn::TraitBound) {
        self.path_ref(None, &b.path, RefKind::Type);
    }

    fn visit_pat(&mut self, p: &'ast syn::Pat) {
        // Patterns outside `let`/`match`/parameters (rare): bound nowhere.
        self.bind_pat(p, Ty::Unknown);
    }
}

impl Model {
    /// What a definition of the def map resolves to, as the API says it.
    pub fn def_target(&self, def: Def) -> Resolved {
        match def {
            Def::Item(id) => Resolved::Item(vec![self.loc(id)]),
            Def::Variant(e, v) => match &self.item(e).kind {
                ItemKind::Enum { variants, .. } => Resolved::Item(vec![ItemLoc {
                    file: self.files[e.file as usize].path.clone(),
                    name: variants[v as usize].name_range.clone(),
                }]),
                _ => Resolved::Unresolved(Why::NotFound),
            },
            Def::Module(m) => Resolved::Item(vec![self.module_loc(m)]),
            Def::External => Resolved::External,
        }
    }

    /// Where a module is declared: its `mod` item's name, or the start of a
    /// crate root's file.
    pub fn module_loc(&self, m: ModuleId) -> ItemLoc {
        let module = &self.def_map.modules[m as usize];
        match (module.decl, module.origin) {
            (Some(d), _) => self.loc(d),
            (None, Some((f, _))) => ItemLoc {
                file: self.files[f as usize].path.clone(),
                name: 0..0,
            },
            (None, None) => ItemLoc {
                file: Default::default(),
                name: 0..0,
            },
        }
    }

    /// A path's resolution as the API says it, and its value's type.
    fn path_res(&self, r: Result<PathRes, Why>, names: &[&str]) -> (Resolved, Ty) {
        match r {
            Ok(PathRes { def, consumed }) if consumed == names.len() => {
                let ty = match def {
                    Def::Item(id) => self.value_ty(id),
                    Def::Variant(e, _) => Ty::Adt(e, Vec::new()),
                    _ => Ty::Unknown,
                };
                (self.def_target(def), ty)
            }
            Ok(PathRes {
                def: Def::Item(id),
                consumed,
            }) if consumed + 1 == names.len() => {
                (self.assoc_of_item(id, names[consumed]), Ty::Unknown)
            }
            Ok(PathRes {
                def: Def::External, ..
            }) => (Resolved::External, Ty::Unknown),
            Ok(_) => (Resolved::Unresolved(Why::AssocNotFound), Ty::Unknown),
            Err(why) => (Resolved::Unresolved(why), Ty::Unknown),
        }
    }

    /// The type a resolved type path names.
    fn ty_of_target(&self, target: &Resolved) -> Ty {
        let Resolved::Item(locs) = target else {
            return Ty::Unknown;
        };
        let Some(loc) = locs.first() else {
            return Ty::Unknown;
        };
        match self.item_at(loc) {
            Some(id) => match &self.item(id).kind {
                ItemKind::Struct { .. } | ItemKind::Enum { .. } | ItemKind::Union { .. } => {
                    Ty::Adt(id, Vec::new())
                }
                ItemKind::TypeAlias { ty: Some(t), .. } => self.lower(t, &self.item_scope(id), 0),
                _ => Ty::Unknown,
            },
            None => self
                .enum_of_variant(loc)
                .map(|e| Ty::Adt(e, Vec::new()))
                .unwrap_or(Ty::Unknown),
        }
    }

    /// A field of the struct or variant a resolved path names: its type and
    /// where it is declared.
    fn field_of_target(&self, target: &Resolved, name: &str) -> Option<(Ty, ItemLoc)> {
        let Resolved::Item(locs) = target else {
            return None;
        };
        let loc = locs.first()?;
        if let Some(id) = self.item_at(loc) {
            return match self.ty_of_target(target) {
                Ty::Adt(adt, _) => self.field_ty(adt, name),
                _ => self.field_ty(id, name),
            };
        }
        let e = self.enum_of_variant(loc)?;
        let ItemKind::Enum { variants, .. } = &self.item(e).kind else {
            return None;
        };
        let v = variants.iter().position(|v| v.name_range == loc.name)?;
        self.variant_field_ty(e, v as u32, name)
    }

    /// The enum whose variant is named at `loc`.
    fn enum_of_variant(&self, loc: &ItemLoc) -> Option<ItemId> {
        self.files_of(&loc.file).find_map(|f| {
            let &idx = self.files[f as usize]
                .tree
                .variant_at
                .get(&loc.name.start)?;
            Some(ItemId { file: f, idx })
        })
    }

    /// Whether `loc` names a type (struct, enum, union, trait, alias).
    fn is_type_loc(&self, loc: &ItemLoc) -> bool {
        self.item_at(loc).is_some_and(|id| {
            matches!(
                self.item(id).kind,
                ItemKind::Struct { .. }
                    | ItemKind::Enum { .. }
                    | ItemKind::Union { .. }
                    | ItemKind::Trait { .. }
                    | ItemKind::TypeAlias { .. }
            )
        })
    }

    /// Whether an ident pattern naming `loc` is a path: a unit struct, a
    /// variant, a const or static.
    fn is_pattern_const(&self, loc: &ItemLoc) -> bool {
        match self.item_at(loc) {
            Some(id) => matches!(
                self.item(id).kind,
                ItemKind::Const { .. } | ItemKind::Static { .. } | ItemKind::Struct { .. }
            ),
            None => self.enum_of_variant(loc).is_some(),
        }
    }

    /// The declared type of the `i`-th field of a tuple struct or variant.
    fn positional_field_ty(&self, target: &Resolved, i: usize) -> Ty {
        let Resolved::Item(locs) = target else {
            return Ty::Unknown;
        };
        let Some(loc) = locs.first() else {
            return Ty::Unknown;
        };
        if let Some(id) = self.item_at(loc) {
            return self
                .field_ty(id, &i.to_string())
                .map(|(t, _)| t)
                .unwrap_or(Ty::Unknown);
        }
        let Some(e) = self.enum_of_variant(loc) else {
            return Ty::Unknown;
        };
        let ItemKind::Enum { variants, .. } = &self.item(e).kind else {
            return Ty::Unknown;
        };
        let Some(v) = variants.iter().find(|v| v.name_range == loc.name) else {
            return Ty::Unknown;
        };
        match v.fields.get(i) {
            Some(f) => self.lower(&f.ty, &self.item_scope(e), 0),
            None => Ty::Unknown,
        }
    }
}
