//! Paths resolved: through the body's scopes (locals, block items,
//! generics, `Self`) to the def map, with a reference for each prefix;
//! `use` trees and macro calls.

use std::ops::Range;

use syn::visit::Visit;

use super::Walker;
use crate::semantic::def_map::{Def, Ns, PathRes};
use crate::semantic::ty::{Ty, strip};
use crate::semantic::{ItemId, ItemLoc, RefKind, Resolved, Why};

impl Walker<'_, '_, '_, '_> {
    pub(super) fn resolve_module_path(&self, names: &[&str], global: bool, ns: Ns) -> Resolved {
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
    pub(super) fn resolve_path(
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

    pub(super) fn in_impl_of(&self, member: ItemId, tr: ItemId) -> bool {
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
    pub(super) fn prefix_refs(&mut self, path: &syn::Path) {
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

    pub(super) fn path_ref(
        &mut self,
        qself: Option<&syn::QSelf>,
        path: &syn::Path,
        kind: RefKind,
    ) -> Ty {
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

    pub(super) fn macro_ref(&mut self, mac: &syn::Macro) {
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
        self.push_ref(range.clone(), RefKind::Macro, target);
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
            // `format!("{}", x)` (`format!("{x}")`) writes what
            // `x.to_string()` does; `format!("{:?}", x)` (`"{x:?}"`) what
            // its `Debug` does.
            if name == "format"
                && self.displays.is_some()
                && let Some((arg, debug)) = formatted(&args)
            {
                let ty = self.ty_of(&arg);
                let written = match debug {
                    false => self.model.display_of(&ty),
                    true => self.model.debug_of(&ty),
                };
                if let Some(d) = &mut self.displays {
                    d.push((range.start, written));
                }
            }
        } else {
            let semi = syn::punctuated::Punctuated::<syn::Expr, syn::Token![;]>::parse_terminated;
            if let Ok(args) = semi.parse2(mac.tokens.clone()) {
                for a in &args {
                    self.visit_expr(a);
                }
            } else if name.ends_with("matches") {
                // `matches!(value, pattern)`: the value is an expression.
                let value = |input: syn::parse::ParseStream<'_>| {
                    let value: syn::Expr = input.parse()?;
                    let _: proc_macro2::TokenStream = input.parse()?;
                    Ok(value)
                };
                if let Ok(value) = value.parse2(mac.tokens.clone()) {
                    self.visit_expr(&value);
                }
            }
        }
    }

    pub(super) fn use_refs(&mut self, tree: &syn::UseTree, prefix: &mut Vec<String>, global: bool) {
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

    pub(super) fn use_leaf(&mut self, path: &[String], range: Range<usize>, global: bool) {
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

/// The one value `format!`'s arguments write, and whether with `Debug`:
/// `"{}", x`, `"{:?}", x`, or a local captured (`"{x}"`, `"{x:?}"`).
pub fn formatted<'e>(args: impl IntoIterator<Item = &'e syn::Expr>) -> Option<(syn::Expr, bool)> {
    let mut args = args.into_iter();
    let (Some(syn::Expr::Lit(lit)), arg, None) = (args.next(), args.next(), args.next()) else {
        return None;
    };
    let syn::Lit::Str(s) = &lit.lit else {
        return None;
    };
    let format = s.value();
    match (format.as_str(), arg) {
        ("{}", Some(arg)) => Some((arg.clone(), false)),
        ("{:?}", Some(arg)) => Some((arg.clone(), true)),
        (f, None) => {
            let name = f.strip_prefix('{')?.strip_suffix('}')?;
            let (name, debug) = match name.strip_suffix(":?") {
                Some(name) => (name, true),
                None => (name, false),
            };
            let ident: syn::Ident = syn::parse_str(name).ok()?;
            let path = syn::ExprPath {
                attrs: Vec::new(),
                qself: None,
                path: ident.into(),
            };
            Some((syn::Expr::Path(path), debug))
        }
        _ => None,
    }
}
