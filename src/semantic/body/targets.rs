//! What the model answers about a resolved target: its type, its fields,
//! the enum of a variant, whether it is a type or a pattern constant.

use crate::semantic::def_map::{Def, ModuleId, PathRes};
use crate::semantic::item_tree::ItemKind;
use crate::semantic::ty::Ty;
use crate::semantic::{ItemId, ItemLoc, Model, Resolved, Why};

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
    pub(super) fn path_res(&self, r: Result<PathRes, Why>, names: &[&str]) -> (Resolved, Ty) {
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
    pub(super) fn ty_of_target(&self, target: &Resolved) -> Ty {
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
    pub(super) fn field_of_target(&self, target: &Resolved, name: &str) -> Option<(Ty, ItemLoc)> {
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
    pub(super) fn enum_of_variant(&self, loc: &ItemLoc) -> Option<ItemId> {
        self.files_of(&loc.file).find_map(|f| {
            let &idx = self.files[f as usize]
                .tree
                .variant_at
                .get(&loc.name.start)?;
            Some(ItemId { file: f, idx })
        })
    }

    /// Whether `loc` names a type (struct, enum, union, trait, alias).
    pub(super) fn is_type_loc(&self, loc: &ItemLoc) -> bool {
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
    pub(super) fn is_pattern_const(&self, loc: &ItemLoc) -> bool {
        match self.item_at(loc) {
            Some(id) => matches!(
                self.item(id).kind,
                ItemKind::Const { .. } | ItemKind::Static { .. } | ItemKind::Struct { .. }
            ),
            None => self.enum_of_variant(loc).is_some(),
        }
    }

    /// The declared type of the `i`-th field of a tuple struct or variant.
    pub(super) fn positional_field_ty(&self, target: &Resolved, i: usize) -> Ty {
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
