//! Declared types, enough to send a method call to its impl: no inference,
//! no unification, no trait solving. A type is what a signature, a field, a
//! `let` annotation or a constructor says it is, or unknown.

use std::collections::HashSet;

use super::def_map::{Def, ModuleId, Ns, PathRes};
use super::item_tree::{Generics, ItemKind, PathRef, TypeRef};
use super::{ItemId, ItemLoc, Model, Resolved, Why};

/// A type, as far as declarations tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ty {
    /// A struct, enum or union of the inputs.
    Adt(ItemId, Vec<Ty>),
    /// A generic parameter, `impl Trait` or `dyn Trait`: its trait bounds
    /// of the inputs (and whether some bound is outside them).
    Bounded(Vec<ItemId>, bool),
    /// A type outside the inputs, by its last name (`Option`, `Arc`).
    Ext(String, Vec<Ty>),
    Ref(Box<Ty>),
    Tuple(Vec<Ty>),
    Slice(Box<Ty>),
    Unknown,
}

/// Wrappers a method call sees through (auto-deref).
const DEREF_WRAPPERS: &[&str] = &[
    "Box",
    "Arc",
    "Rc",
    "MutexGuard",
    "RwLockReadGuard",
    "RwLockWriteGuard",
    "Ref",
    "RefMut",
    "Pin",
    "ManuallyDrop",
];

/// Methods every type may have from std's traits (`Clone`, `ToString`..):
/// not found on a type of the inputs, they are std's.
const STD_TRAIT_METHODS: &[&str] = &[
    "clone",
    "clone_from",
    "to_string",
    "to_owned",
    "into",
    "try_into",
    "from",
    "eq",
    "ne",
    "cmp",
    "partial_cmp",
    "lt",
    "le",
    "gt",
    "ge",
    "max",
    "min",
    "hash",
    "fmt",
    "borrow",
    "borrow_mut",
    "as_ref",
    "as_mut",
    "default",
    "drop",
    "type_id",
    "deref",
    "deref_mut",
    "into_iter",
    "iter",
    "next",
    "to_vec",
    "len",
    "is_empty",
];

/// Aliases and derefs followed at most in one lowering or lookup.
const MAX_STEPS: usize = 32;

/// Where a type is written: the module, the generic parameters in scope
/// (name and bounds), and what `Self` is.
#[derive(Debug, Clone, Default)]
pub struct TyScope {
    pub module: ModuleId,
    pub generics: Vec<(String, Vec<ItemId>, bool)>,
    pub self_ty: Option<Ty>,
    /// Generic parameters given as arguments (`Result<Tensor>` of `type
    /// Result<T> = std::result::Result<T, Error>`).
    pub subst: Vec<(String, Ty)>,
}

impl Model {
    /// The module an item of the inputs is written in.
    pub fn module_of(&self, id: ItemId) -> ModuleId {
        let tree = &self.files[id.file as usize].tree;
        let scope = tree.items[id.idx as usize].scope;
        (self.def_map.module_of_scope)
            .get(&(id.file, scope))
            .copied()
            .unwrap_or(0)
    }

    pub fn item(&self, id: ItemId) -> &super::item_tree::Item {
        &self.files[id.file as usize].tree.items[id.idx as usize]
    }

    /// Trait bounds as trait items (and whether one is outside the inputs).
    pub fn bound_traits(&self, module: ModuleId, bounds: &[PathRef]) -> (Vec<ItemId>, bool) {
        let mut out = Vec::new();
        let mut outside = false;
        for b in bounds {
            let names: Vec<&str> = b.names().collect();
            match self
                .def_map
                .resolve_names(module, &names, b.global, Ns::Types)
            {
                Ok(PathRes {
                    def: Def::Item(t),
                    consumed,
                }) if consumed == names.len() => out.push(t),
                _ => outside = true,
            }
        }
        (out, outside)
    }

    /// Generic parameters as a scope's entries.
    pub fn generic_scope(
        &self,
        module: ModuleId,
        g: &Generics,
    ) -> Vec<(String, Vec<ItemId>, bool)> {
        g.params
            .iter()
            .map(|p| {
                let (traits, outside) = self.bound_traits(module, &p.bounds);
                (p.name.clone(), traits, outside)
            })
            .collect()
    }

    /// The scope of an item's signature: its module, its container's and
    /// its own generics, `Self`.
    pub fn item_scope(&self, id: ItemId) -> TyScope {
        let module = self.module_of(id);
        let item = self.item(id);
        let mut scope = TyScope {
            module,
            ..TyScope::default()
        };
        if let Some(c) = item.container {
            let cid = ItemId {
                file: id.file,
                idx: c,
            };
            match &self.item(cid).kind {
                ItemKind::Impl(data) => {
                    scope.generics = self.generic_scope(module, &data.generics);
                    let self_ty = self.lower(&data.self_ty, &scope, 0);
                    scope.self_ty = Some(self_ty);
                }
                ItemKind::Trait { generics, .. } => {
                    scope.generics = self.generic_scope(module, generics);
                    scope.self_ty = Some(Ty::Bounded(vec![cid], false));
                }
                _ => {}
            }
        }
        let own = match &item.kind {
            ItemKind::Fn(sig) => Some(&sig.generics),
            ItemKind::Struct { generics, .. }
            | ItemKind::Union { generics, .. }
            | ItemKind::Enum { generics, .. }
            | ItemKind::TypeAlias { generics, .. } => Some(generics),
            _ => None,
        };
        if let Some(g) = own {
            let more = self.generic_scope(module, g);
            scope.generics.extend(more);
        }
        scope
    }

    /// A declared type as a [`Ty`].
    pub fn lower(&self, t: &TypeRef, scope: &TyScope, depth: usize) -> Ty {
        if depth > MAX_STEPS {
            return Ty::Unknown;
        }
        match t {
            TypeRef::Path(p) => self.lower_path(p, scope, depth),
            TypeRef::Ref { inner, .. } | TypeRef::Ptr(inner) => {
                Ty::Ref(Box::new(self.lower(inner, scope, depth + 1)))
            }
            TypeRef::Tuple(v) => {
                Ty::Tuple(v.iter().map(|t| self.lower(t, scope, depth + 1)).collect())
            }
            TypeRef::Slice(t) | TypeRef::Array(t) => {
                Ty::Slice(Box::new(self.lower(t, scope, depth + 1)))
            }
            TypeRef::ImplTrait(b) | TypeRef::DynTrait(b) => {
                let (traits, outside) = self.bound_traits(scope.module, b);
                Ty::Bounded(traits, outside)
            }
            _ => Ty::Unknown,
        }
    }

    fn lower_path(&self, p: &PathRef, scope: &TyScope, depth: usize) -> Ty {
        if p.qself.is_some() {
            return Ty::Unknown;
        }
        let names: Vec<&str> = p.names().collect();
        let args = |i: usize| -> Vec<Ty> {
            (p.segments
                .get(i)
                .map(|s| s.args.as_slice())
                .unwrap_or_default())
            .iter()
            .map(|a| self.lower(a, scope, depth + 1))
            .collect()
        };
        if let [one] = names.as_slice() {
            if *one == "Self" {
                return scope.self_ty.clone().unwrap_or(Ty::Unknown);
            }
            if let Some((_, ty)) = scope.subst.iter().find(|(n, _)| n == one) {
                return ty.clone();
            }
            if let Some((_, traits, outside)) = scope.generics.iter().rev().find(|g| g.0 == *one) {
                return Ty::Bounded(traits.clone(), *outside);
            }
        }
        let res = self
            .def_map
            .resolve_names(scope.module, &names, p.global, Ns::Types);
        match res {
            Ok(PathRes {
                def: Def::Item(id),
                consumed,
            }) if consumed == names.len() => match &self.item(id).kind {
                ItemKind::Struct { .. } | ItemKind::Enum { .. } | ItemKind::Union { .. } => {
                    Ty::Adt(id, args(names.len() - 1))
                }
                ItemKind::Trait { .. } => Ty::Bounded(vec![id], false),
                ItemKind::TypeAlias {
                    ty: Some(t),
                    generics,
                } => {
                    let mut inner = self.item_scope(id);
                    let given = args(names.len() - 1);
                    let params = generics.params.iter().filter(|g| g.is_type);
                    inner.subst = params.map(|g| g.name.clone()).zip(given).collect();
                    self.lower(t, &inner, depth + 1)
                }
                _ => Ty::Unknown,
            },
            Ok(PathRes {
                def: Def::External, ..
            }) => Ty::Ext(
                names.last().map(|s| s.to_string()).unwrap_or_default(),
                args(names.len() - 1),
            ),
            _ => Ty::Unknown,
        }
    }

    /// The traits and their supertraits (transitively).
    pub fn with_supertraits(&self, traits: &[ItemId]) -> Vec<ItemId> {
        self.supertraits(traits).0
    }

    /// The traits and their supertraits (transitively), and whether one of
    /// them has a supertrait outside the inputs.
    pub fn supertraits(&self, traits: &[ItemId]) -> (Vec<ItemId>, bool) {
        let mut seen: HashSet<ItemId> = HashSet::new();
        let mut work: Vec<ItemId> = traits.to_vec();
        let mut out = Vec::new();
        let mut outside = false;
        while let Some(t) = work.pop() {
            if !seen.insert(t) || seen.len() > 4 * MAX_STEPS {
                continue;
            }
            out.push(t);
            if let ItemKind::Trait { supertraits, .. } = &self.item(t).kind {
                let (more, out_of) = self.bound_traits(self.module_of(t), supertraits);
                outside |= out_of;
                work.extend(more);
            }
        }
        (out, outside)
    }

    /// What a type of the inputs derefs to: the `Target` of its `impl
    /// Deref` (the trait is std's, found by name).
    fn deref_target(&self, adt: ItemId) -> Option<Ty> {
        let impls = self.def_map.impls.trait_for.get(&adt)?;
        impls.iter().find_map(|&imp| {
            let ItemKind::Impl(d) = &self.item(imp).kind else {
                return None;
            };
            let is_deref = d
                .trait_
                .as_ref()
                .and_then(|t| t.last())
                .is_some_and(|s| s.name == "Deref");
            if !is_deref {
                return None;
            }
            let target = self.member(imp, "Target")?;
            let ItemKind::TypeAlias { ty: Some(t), .. } = &self.item(target).kind else {
                return None;
            };
            Some(self.lower(t, &self.item_scope(target), 0))
        })
    }

    /// What `to_string()` or `format!("{}", ..)` of a value of type `ty`
    /// writes: the `fmt` of the type's `impl Display` in the inputs (through
    /// references, the wrappers a method call derefs, and an `impl Deref`).
    /// `External` for a type outside the inputs (a string passes its value
    /// on); unresolved for a type of the inputs whose `Display` the model
    /// does not see (a derive, a blanket impl) or a generic.
    pub fn display_of(&self, ty: &Ty) -> Resolved {
        self.written_by(ty, "Display")
    }

    /// What `format!("{:?}", x)` writes for a value of `ty`: the `fmt` of
    /// its `impl Debug`, else, for an enum of the inputs, the enum itself
    /// (a derive writes the variant's name). An `impl Deref` is not
    /// followed: `Debug` does not pass through it.
    pub fn debug_of(&self, ty: &Ty) -> Resolved {
        self.written_by(ty, "Debug")
    }

    /// [`Self::display_of`] (`trait_name` `Display`) or
    /// [`Self::debug_of`] (`Debug`).
    fn written_by(&self, ty: &Ty, trait_name: &str) -> Resolved {
        let mut ty = ty.clone();
        for _ in 0..MAX_STEPS {
            match ty {
                Ty::Ref(inner) => ty = *inner,
                Ty::Ext(ref wrapper, ref args)
                    if DEREF_WRAPPERS.contains(&wrapper.as_str()) && !args.is_empty() =>
                {
                    ty = args[0].clone();
                }
                Ty::Adt(id, _) => {
                    let found = self.fmt_of(id, trait_name);
                    if !found.is_empty() {
                        return self.located(found, Why::MethodNotFound);
                    }
                    let derived_debug = matches!(&self.item(id).kind, ItemKind::Enum { .. });
                    match self.deref_target(id) {
                        _ if trait_name == "Debug" && derived_debug => {
                            return self.located(vec![id], Why::MethodNotFound);
                        }
                        Some(target) if trait_name == "Display" => ty = target,
                        _ => return Resolved::Unresolved(Why::MethodNotFound),
                    }
                }
                Ty::Ext(..) | Ty::Tuple(_) | Ty::Slice(_) => return Resolved::External,
                Ty::Bounded(..) => return Resolved::Unresolved(Why::MethodNotFound),
                Ty::Unknown => return Resolved::Unresolved(Why::UnknownReceiver),
            }
        }
        Resolved::Unresolved(Why::LimitReached)
    }

    /// The `fmt` of each `impl <trait_name> for` `adt` of the inputs
    /// (`Display`, `Debug`).
    fn fmt_of(&self, adt: ItemId, trait_name: &str) -> Vec<ItemId> {
        let impls = self.def_map.impls.trait_for.get(&adt).into_iter().flatten();
        let of_trait = impls.filter(|&&imp| {
            matches!(&self.item(imp).kind, ItemKind::Impl(d)
                if d.trait_.as_ref().and_then(|t| t.last()).is_some_and(|s| s.name == trait_name))
        });
        of_trait
            .filter_map(|&imp| self.member(imp, "fmt"))
            .collect()
    }

    /// What indexing a value of `adt` (with type arguments `args`) gives:
    /// the `Output` of its `impl Index`, an impl parameter standing for the
    /// argument in its place of the self type (`impl<Id, T> Index<Id> for
    /// Slab<Id, T> { type Output = T; }`). Impls that disagree give nothing.
    pub fn index_output(&self, adt: ItemId, args: &[Ty]) -> Option<Ty> {
        let mut found: Option<Ty> = None;
        for &imp in self.def_map.impls.trait_for.get(&adt).into_iter().flatten() {
            let ItemKind::Impl(d) = &self.item(imp).kind else {
                continue;
            };
            let trait_name = d.trait_.as_ref().and_then(|t| t.last());
            if trait_name.is_none_or(|s| s.name != "Index") {
                continue;
            }
            let Some(output) = self.member(imp, "Output") else {
                continue;
            };
            let ItemKind::TypeAlias {
                ty: Some(output), ..
            } = &self.item(output).kind
            else {
                return None;
            };
            let param = match output {
                TypeRef::Path(p) if p.qself.is_none() && p.segments.len() == 1 => {
                    let name = &p.segments[0].name;
                    (d.generics.params.iter()).find(|g| g.is_type && g.name == *name)
                }
                _ => None,
            };
            let ty = match param {
                Some(param) => {
                    let TypeRef::Path(self_ty) = &d.self_ty else {
                        return None;
                    };
                    let place = (self_ty.segments.last()?.args.iter()).position(|a| {
                        matches!(a, TypeRef::Path(q) if q.qself.is_none()
                            && q.segments.len() == 1 && q.segments[0].name == param.name)
                    })?;
                    args.get(place)?.clone()
                }
                None => self.lower(output, &self.item_scope(imp), 0),
            };
            match &found {
                Some(known) if *known != ty => return None,
                _ => found = Some(ty),
            }
        }
        found.filter(|t| *t != Ty::Unknown)
    }

    /// The member of an impl or trait named `name`.
    pub fn member(&self, container: ItemId, name: &str) -> Option<ItemId> {
        let items = match &self.item(container).kind {
            ItemKind::Impl(d) => &d.items,
            ItemKind::Trait { items, .. } => items,
            _ => return None,
        };
        items
            .iter()
            .map(|&idx| ItemId {
                file: container.file,
                idx,
            })
            .find(|&m| self.item(m).name == name)
    }

    /// An associated item `name` of a trait: its declaration, then every
    /// impl's in the inputs.
    fn trait_assoc(&self, traits: &[ItemId], name: &str) -> Vec<ItemId> {
        let mut out = Vec::new();
        for t in self.with_supertraits(traits) {
            let Some(decl) = self.member(t, name) else {
                continue;
            };
            out.push(decl);
            for &imp in self.def_map.impls.of_trait.get(&t).into_iter().flatten() {
                if let Some(m) = self.member(imp, name) {
                    out.push(m);
                }
            }
        }
        out
    }

    /// An associated item `name` of a type of the inputs: inherent impls
    /// first, then trait impls (a trait's default method when the impl does
    /// not define it), then blanket impls.
    pub fn adt_assoc(&self, adt: ItemId, name: &str) -> Vec<ItemId> {
        let impls = &self.def_map.impls;
        for &imp in impls.inherent.get(&adt).into_iter().flatten() {
            if let Some(m) = self.member(imp, name) {
                return vec![m];
            }
        }
        let trait_impls = impls.trait_for.get(&adt).into_iter().flatten();
        self.impls_assoc(trait_impls.chain(&impls.blanket), name)
    }

    /// The members named `name` of trait impls (a trait's default when the
    /// impl does not define it). An associated type or const answers the
    /// trait's declaration too: rustc resolves `Self::Output` to it.
    fn impls_assoc<'i>(&self, impls: impl Iterator<Item = &'i ItemId>, name: &str) -> Vec<ItemId> {
        let trait_of = &self.def_map.impls.trait_of;
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        let mut add = |id: ItemId, out: &mut Vec<ItemId>| {
            if seen.insert(id) {
                out.push(id);
            }
        };
        for &imp in impls {
            let decl = trait_of.get(&imp).and_then(|&t| self.member(t, name));
            match self.member(imp, name) {
                Some(m) => {
                    let assoc = !matches!(self.item(m).kind, ItemKind::Fn(_));
                    if let (true, Some(d)) = (assoc, decl) {
                        add(d, &mut out);
                    }
                    add(m, &mut out);
                }
                None => {
                    if let Some(d) = decl {
                        add(d, &mut out);
                    }
                }
            }
        }
        out
    }

    /// The associated item `name` of a type (`T::new`, `Self::X`).
    pub fn assoc_of_ty(&self, ty: &Ty, name: &str) -> Resolved {
        match ty {
            Ty::Adt(id, _) => self.adt_path_assoc(*id, name),
            Ty::Bounded(traits, outside) => {
                let found = self.trait_assoc(traits, name);
                let outside = *outside || self.supertraits(traits).1;
                if found.is_empty() && (outside || traits.is_empty()) {
                    Resolved::External
                } else {
                    self.located(found, Why::AssocNotFound)
                }
            }
            Ty::Ext(n, _) => {
                // `Self::X` in `impl Tr for f32`: that impl's, else std's.
                let impls = &self.def_map.impls;
                let for_it = impls.for_external.get(n).into_iter().flatten();
                let found = self.impls_assoc(for_it, name);
                if found.is_empty() {
                    Resolved::External
                } else {
                    self.located(found, Why::AssocNotFound)
                }
            }
            Ty::Slice(_) | Ty::Tuple(_) => Resolved::External,
            Ty::Ref(t) => self.assoc_of_ty(t, name),
            Ty::Unknown => Resolved::Unresolved(Why::AssocNotFound),
        }
    }

    /// The associated item `name` of an item a path names (`Type::name`,
    /// `Trait::name`, `Alias::name`).
    pub fn assoc_of_item(&self, id: ItemId, name: &str) -> Resolved {
        match &self.item(id).kind {
            ItemKind::Trait { .. } => {
                self.located(self.trait_assoc(&[id], name), Why::AssocNotFound)
            }
            ItemKind::TypeAlias { .. } => {
                let scope = self.item_scope(id);
                let ty = match &self.item(id).kind {
                    ItemKind::TypeAlias { ty: Some(t), .. } => self.lower(t, &scope, 0),
                    _ => Ty::Unknown,
                };
                self.assoc_of_ty(&ty, name)
            }
            ItemKind::Struct { .. } | ItemKind::Enum { .. } | ItemKind::Union { .. } => {
                self.adt_path_assoc(id, name)
            }
            _ => Resolved::Unresolved(Why::AssocNotFound),
        }
    }

    /// `Type::name` for a type of the inputs: an enum's variant (`Self::A`
    /// in an enum's impl), an associated item, or std's trait methods
    /// (`T::default()` of a derive).
    fn adt_path_assoc(&self, id: ItemId, name: &str) -> Resolved {
        if let Some((v, _)) = self
            .def_map
            .variant_names(id)
            .iter()
            .find(|(_, n)| n == name)
        {
            return self.def_target(Def::Variant(id, *v));
        }
        let found = self.adt_assoc(id, name);
        if found.is_empty() && STD_TRAIT_METHODS.contains(&name) {
            return Resolved::External;
        }
        self.located(found, Why::AssocNotFound)
    }

    pub fn located(&self, ids: Vec<ItemId>, otherwise: Why) -> Resolved {
        if ids.is_empty() {
            return Resolved::Unresolved(otherwise);
        }
        Resolved::Item(ids.into_iter().map(|i| self.loc(i)).collect())
    }

    /// What a method `name` called on a receiver of type `ty` may be.
    pub fn method_on(&self, ty: &Ty, name: &str) -> (Resolved, Vec<ItemId>) {
        let mut ty = ty.clone();
        for _ in 0..MAX_STEPS {
            match ty {
                Ty::Ref(inner) => ty = *inner,
                Ty::Adt(id, _) => {
                    let found = self.adt_assoc(id, name);
                    if !found.is_empty() {
                        return (self.located(found.clone(), Why::MethodNotFound), found);
                    }
                    if let Some(target) = self.deref_target(id) {
                        ty = target;
                        continue;
                    }
                    return if STD_TRAIT_METHODS.contains(&name) {
                        (Resolved::External, Vec::new())
                    } else {
                        (Resolved::Unresolved(Why::MethodNotFound), Vec::new())
                    };
                }
                Ty::Bounded(traits, outside) => {
                    let found = self.trait_assoc(&traits, name);
                    if !found.is_empty() {
                        return (self.located(found.clone(), Why::MethodNotFound), found);
                    }
                    let outside = outside || self.supertraits(&traits).1;
                    let std = outside || traits.is_empty() || STD_TRAIT_METHODS.contains(&name);
                    return if std {
                        (Resolved::External, Vec::new())
                    } else {
                        (Resolved::Unresolved(Why::MethodNotFound), Vec::new())
                    };
                }
                Ty::Ext(ref wrapper, ref args)
                    if DEREF_WRAPPERS.contains(&wrapper.as_str()) && !args.is_empty() =>
                {
                    let inner = args[0].clone();
                    let (r, ids) = self.method_on(&inner, name);
                    return match r {
                        Resolved::Unresolved(_) => (Resolved::External, Vec::new()),
                        found => (found, ids),
                    };
                }
                Ty::Ext(ref n, _) => {
                    let impls = &self.def_map.impls;
                    let by_name = impls.for_external.get(n).into_iter().flatten();
                    let found = self.impls_assoc(by_name.chain(&impls.blanket), name);
                    if found.is_empty() {
                        return (Resolved::External, Vec::new());
                    }
                    return (self.located(found.clone(), Why::MethodNotFound), found);
                }
                Ty::Tuple(_) | Ty::Slice(_) => return (Resolved::External, Vec::new()),
                Ty::Unknown => return (Resolved::Unresolved(Why::UnknownReceiver), Vec::new()),
            }
        }
        (Resolved::Unresolved(Why::LimitReached), Vec::new())
    }

    /// The type a function returns, `Self` being `self_ty` when known.
    pub fn fn_ret(&self, f: ItemId, self_ty: Option<&Ty>) -> Ty {
        let ItemKind::Fn(sig) = &self.item(f).kind else {
            return Ty::Unknown;
        };
        let Some(ret) = &sig.ret else {
            return Ty::Tuple(Vec::new());
        };
        let mut scope = self.item_scope(f);
        if let Some(s) = self_ty {
            scope.self_ty = Some(s.clone());
        }
        self.lower(ret, &scope, 0)
    }

    /// The declared type of a field of a struct (or union) of the inputs.
    pub fn field_ty(&self, adt: ItemId, name: &str) -> Option<(Ty, ItemLoc)> {
        let fields = match &self.item(adt).kind {
            ItemKind::Struct { fields, .. } | ItemKind::Union { fields, .. } => fields,
            _ => return None,
        };
        let f = fields.iter().find(|f| f.name == name)?;
        let scope = self.item_scope(adt);
        let loc = ItemLoc {
            file: self.files[adt.file as usize].path.clone(),
            name: f.name_range.clone(),
        };
        Some((self.lower(&f.ty, &scope, 0), loc))
    }

    /// The declared type of a field of an enum's variant.
    pub fn variant_field_ty(&self, e: ItemId, v: u32, name: &str) -> Option<(Ty, ItemLoc)> {
        let ItemKind::Enum { variants, .. } = &self.item(e).kind else {
            return None;
        };
        let f = variants
            .get(v as usize)?
            .fields
            .iter()
            .find(|f| f.name == name)?;
        let loc = ItemLoc {
            file: self.files[e.file as usize].path.clone(),
            name: f.name_range.clone(),
        };
        Some((self.lower(&f.ty, &self.item_scope(e), 0), loc))
    }

    /// The declared type of a const or static.
    pub fn value_ty(&self, id: ItemId) -> Ty {
        match &self.item(id).kind {
            ItemKind::Const { ty, .. } | ItemKind::Static { ty, .. } => {
                self.lower(ty, &self.item_scope(id), 0)
            }
            ItemKind::Struct { .. } => Ty::Adt(id, Vec::new()),
            _ => Ty::Unknown,
        }
    }
}

/// A type seen through references and the wrappers a method call derefs.
pub fn strip(ty: &Ty) -> &Ty {
    let mut t = ty;
    for _ in 0..MAX_STEPS {
        match t {
            Ty::Ref(inner) => t = inner,
            Ty::Ext(w, args) if DEREF_WRAPPERS.contains(&w.as_str()) && !args.is_empty() => {
                t = &args[0]
            }
            _ => break,
        }
    }
    t
}
