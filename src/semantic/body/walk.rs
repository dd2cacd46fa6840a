//! The walk over a file's items and bodies: what each item and expression
//! adds to the scopes, and the references it makes.

use syn::spanned::Spanned;
use syn::visit::{self, Visit};

use super::Walker;
use super::exprs::{CLOSURE_ADAPTORS, elem_ty};
use crate::semantic::def_map::Ns;
use crate::semantic::ty::{Ty, TyScope, strip};
use crate::semantic::{RefKind, Resolved, Why};

impl Walker<'_, '_, '_, '_> {
    /// A fn's parameters bound and its body walked, in a scope of its own.
    pub(super) fn fn_body(&mut self, sig: &syn::Signature, block: Option<&syn::Block>) {
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
        if method == "to_string" && m.args.is_empty() && matches!(target, Resolved::External) {
            let written = self.model.display_of(&recv);
            if let Some(d) = &mut self.displays {
                d.push((range.start, written));
            }
        }
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
