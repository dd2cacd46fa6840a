//! The narrow API the lints ask: a path from a place, an item's facts, the
//! methods a receiver type's method name may call.

use std::path::Path;

use super::def_map::{Def, ModuleId, Ns, PathRes};
use super::item_tree::{ItemKind, PathRef, SelfParam, type_ref};
use super::ty::{Ty, TyScope};
use super::{FileIdx, ItemId, ItemLoc, Model, Resolved, Why};
use crate::syntax::parse::LineTable;

/// What kind of item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemKindName {
    Fn,
    Method,
    Const,
    Static,
    Struct,
    Union,
    Enum,
    Trait,
    TypeAlias,
    Module,
    Macro,
    Import,
    Impl,
    Other,
}

/// An item's facts, in words a lint can compare.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemInfo {
    pub kind: ItemKindName,
    pub name: String,
    /// `crate::ops::gather::register`; a method is `crate::m::Type::name`.
    pub path: String,
    /// The crate's name.
    pub krate: String,
    /// A function's parameters: (name if a plain binding, declared type).
    pub params: Vec<(Option<String>, String)>,
    /// `self`, `&self`, `&mut self` of a method.
    pub self_param: Option<String>,
    pub ret: Option<String>,
    /// The impl a method is in: its self type and trait, as written.
    pub impl_self: Option<String>,
    pub impl_trait: Option<String>,
}

impl Model {
    /// The file of the model at `file` and the module `offset` is in.
    fn place(&self, file: &Path, offset: usize) -> Option<(FileIdx, ModuleId)> {
        self.files_of(file).find_map(|f| {
            let tree = &self.files[f as usize].tree;
            Some((f, self.def_map.module_at(f, tree, offset)?))
        })
    }

    /// The scope of types at `offset`: the innermost item holding it (a
    /// fn, its impl or trait) gives the generics and `Self`.
    fn ty_scope_at(&self, f: FileIdx, module: ModuleId, offset: usize) -> TyScope {
        let tree = &self.files[f as usize].tree;
        let inner = (tree.items.iter().enumerate())
            .filter(|(_, i)| i.range.contains(&offset))
            .filter(|(_, i)| {
                matches!(
                    i.kind,
                    ItemKind::Fn(_) | ItemKind::Impl(_) | ItemKind::Trait { .. }
                )
            })
            .min_by_key(|(_, i)| i.range.len());
        let Some((idx, item)) = inner else {
            return TyScope {
                module,
                ..TyScope::default()
            };
        };
        let id = ItemId {
            file: f,
            idx: idx as u32,
        };
        match &item.kind {
            ItemKind::Impl(data) => {
                let mut scope = TyScope {
                    module,
                    generics: self.generic_scope(module, &data.generics),
                    ..TyScope::default()
                };
                scope.self_ty = Some(self.lower(&data.self_ty, &scope, 0));
                scope
            }
            ItemKind::Trait { generics, .. } => TyScope {
                module,
                generics: self.generic_scope(module, generics),
                self_ty: Some(Ty::Bounded(vec![id], false)),
                ..TyScope::default()
            },
            _ => self.item_scope(id),
        }
    }

    /// What `path` (`a::b::C`, `Self::x`, `T::new`) names at `offset` of
    /// `file`: a value, else a type, else a macro.
    pub fn resolve_path(&self, file: &Path, offset: usize, path: &str) -> Resolved {
        let Some((f, m)) = self.place(file, offset) else {
            return Resolved::Unresolved(Why::NoSuchScope);
        };
        let p = PathRef::from_names(path);
        let names: Vec<&str> = p.names().collect();
        let Some(&first) = names.first() else {
            return Resolved::Unresolved(Why::NotFound);
        };
        let scope = self.ty_scope_at(f, m, offset);
        let base = if first == "Self" {
            scope.self_ty.clone()
        } else {
            (scope.generics.iter().rev())
                .find(|g| g.0 == first)
                .map(|(_, t, o)| Ty::Bounded(t.clone(), *o))
        };
        if let Some(ty) = base {
            return match names.as_slice() {
                [_] => Resolved::Local,
                [_, name] => self.assoc_of_ty(&ty, name),
                _ => Resolved::Unresolved(Why::AssocNotFound),
            };
        }
        let mut first_why = None;
        for ns in [Ns::Values, Ns::Types, Ns::Macros] {
            let r = self.def_map.resolve_names(m, &names, p.global, ns);
            match r {
                Ok(PathRes { def, consumed }) if consumed == names.len() => {
                    return self.def_target(def);
                }
                Ok(PathRes {
                    def: Def::Item(id),
                    consumed,
                }) if consumed + 1 == names.len() => {
                    return self.assoc_of_item(id, names[consumed]);
                }
                Ok(PathRes {
                    def: Def::External, ..
                }) => return Resolved::External,
                Ok(_) => {
                    first_why.get_or_insert(Why::AssocNotFound);
                }
                Err(why) => {
                    first_why.get_or_insert(why);
                }
            }
        }
        Resolved::Unresolved(first_why.unwrap_or(Why::NotFound))
    }

    /// The facts of the item defined at `loc`.
    pub fn item_info(&self, loc: &ItemLoc) -> Option<ItemInfo> {
        let id = self.item_at(loc)?;
        let item = self.item(id);
        let module = self.module_of(id);
        let container = item.container.map(|c| ItemId {
            file: id.file,
            idx: c,
        });
        let (impl_self, impl_trait, owner) = match container.map(|c| (c, &self.item(c).kind)) {
            Some((_, ItemKind::Impl(d))) => (
                Some(d.self_ty.display()),
                d.trait_.as_ref().map(|t| t.display()),
                Some(d.self_ty.display()),
            ),
            Some((c, ItemKind::Trait { .. })) => (None, None, Some(self.item(c).name.clone())),
            _ => (None, None, None),
        };
        let mut path = self.def_map.module_path(module);
        if let Some(o) = &owner {
            path.push_str("::");
            path.push_str(o);
        }
        path.push_str("::");
        path.push_str(&item.name);
        let kind = match &item.kind {
            ItemKind::Fn(_) if container.is_some() => ItemKindName::Method,
            ItemKind::Fn(_) => ItemKindName::Fn,
            ItemKind::Const { .. } => ItemKindName::Const,
            ItemKind::Static { .. } => ItemKindName::Static,
            ItemKind::Struct { .. } => ItemKindName::Struct,
            ItemKind::Union { .. } => ItemKindName::Union,
            ItemKind::Enum { .. } => ItemKindName::Enum,
            ItemKind::Trait { .. } | ItemKind::TraitAlias => ItemKindName::Trait,
            ItemKind::TypeAlias { .. } => ItemKindName::TypeAlias,
            ItemKind::Mod { .. } | ItemKind::ExternCrate { .. } => ItemKindName::Module,
            ItemKind::MacroRules { .. } | ItemKind::MacroCall { .. } => ItemKindName::Macro,
            ItemKind::Import(_) => ItemKindName::Import,
            ItemKind::Impl(_) => ItemKindName::Impl,
        };
        let (params, self_param, ret) = match &item.kind {
            ItemKind::Fn(sig) => (
                (sig.params.iter())
                    .map(|p| (p.name.clone(), p.ty.display()))
                    .collect(),
                sig.self_param.as_ref().map(|s| match s {
                    SelfParam::Value => "self".to_string(),
                    SelfParam::Ref => "&self".to_string(),
                    SelfParam::RefMut => "&mut self".to_string(),
                    SelfParam::Typed(t) => format!("self: {}", t.display()),
                }),
                sig.ret.as_ref().map(|t| t.display()),
            ),
            _ => (Vec::new(), None, None),
        };
        let krate = self.files[id.file as usize].krate as usize;
        Some(ItemInfo {
            kind,
            name: item.name.clone(),
            path,
            krate: self.def_map.crates[krate].name.clone(),
            params,
            self_param,
            ret,
            impl_self,
            impl_trait,
        })
    }

    /// The methods `name` called on a receiver of type `ty` (as written at
    /// `offset` of `file`: `&R`, `Arc<Device>`, `Self`) may be.
    pub fn method_targets(&self, file: &Path, offset: usize, ty: &str, name: &str) -> Resolved {
        let Some((f, m)) = self.place(file, offset) else {
            return Resolved::Unresolved(Why::NoSuchScope);
        };
        // Parsed on a thread of its own, whose span table is then freed:
        // the caller's may hold spans of its own.
        let tref = std::thread::scope(|s| {
            s.spawn(|| {
                let parsed = syn::parse_str::<syn::Type>(ty).ok();
                let lines = LineTable::new(ty);
                let tref = parsed.map(|p| type_ref(&lines, &p));
                proc_macro2::extra::invalidate_current_thread_spans();
                tref
            })
            .join()
            .ok()
            .flatten()
        });
        let Some(tref) = tref else {
            return Resolved::Unresolved(Why::NotFound);
        };
        let scope = self.ty_scope_at(f, m, offset);
        let receiver = self.lower(&tref, &scope, 0);
        self.method_on(&receiver, name).0
    }
}
