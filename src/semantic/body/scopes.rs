//! Scopes and patterns: the names a block's items and `use`s declare
//! before its statements are walked, and the locals a pattern binds with
//! their types.

use syn::visit::{self, Visit};

use super::{BlockItem, Walker};
use crate::semantic::def_map::Ns;
use crate::semantic::ty::{Ty, strip};
use crate::semantic::{ItemLoc, RefKind, Resolved, Why};

impl Walker<'_, '_, '_, '_> {
    /// Names the items of a block declare, before its statements are
    /// walked (an item is visible in its whole block).
    pub(super) fn declare_block_items(&mut self, stmts: &[syn::Stmt]) {
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

    pub(super) fn declare_block_use(
        &mut self,
        tree: &syn::UseTree,
        prefix: &mut Vec<String>,
        global: bool,
    ) {
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

    pub(super) fn declare_use_leaf(&mut self, path: &[String], name: String, global: bool) {
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

    /// Bind a pattern's names, `ty` being the matched value's type.
    pub(super) fn bind_pat(&mut self, pat: &syn::Pat, ty: Ty) {
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
}
