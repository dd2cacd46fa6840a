//! The items of one file, without bodies: facts, not syntax. Nothing of
//! syn's tree is kept, so the memory a file costs is its names and declared
//! types, and a change inside a body changes nothing here.

use std::ops::Range;

use crate::model::cfg::Cfg;
use crate::syntax::lex;
use crate::syntax::limits::{MAX_CHAIN, MAX_NESTING};
use crate::syntax::parse::{LineTable, parse_file_with};

/// The items of a file, in the order they are written (a container's
/// members after it).
#[derive(Debug, Default)]
pub struct ItemTree {
    pub items: Vec<Item>,
    /// Scope 0 is the file; each inline `mod` adds one.
    pub scopes: Vec<LocalScope>,
    /// Why the file has no items: not parsed, or nesting too deep.
    pub error: Option<String>,
    /// The item whose name starts at an offset.
    pub by_name_start: std::collections::HashMap<usize, u32>,
    /// The enum whose variant's name starts at an offset.
    pub variant_at: std::collections::HashMap<usize, u32>,
}

/// The items written directly in the file or in one inline module.
#[derive(Debug, Default, Clone)]
pub struct LocalScope {
    pub items: Vec<u32>,
    /// The inline `mod` item that opens it (`None` for the file).
    pub module_item: Option<u32>,
    /// Bytes of its content: what an offset inside it is in.
    pub range: Range<usize>,
}

#[derive(Debug, Clone)]
pub struct Item {
    /// The name (for an import, the name it binds; `_` and the empty name
    /// for an impl, a glob and a macro call bind nothing).
    pub name: String,
    /// Bytes of the name ident (for an impl, its self type).
    pub name_range: Range<usize>,
    /// Bytes of the whole item, attributes included.
    pub range: Range<usize>,
    pub vis: Vis,
    pub cfgs: Vec<Cfg>,
    /// The local scope it is written in.
    pub scope: u32,
    /// The impl or trait it belongs to.
    pub container: Option<u32>,
    pub kind: ItemKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Vis {
    Private,
    Public,
    Crate,
    Super,
    /// `pub(in path)`, `pub(self)`.
    In(Vec<String>),
}

#[derive(Debug, Clone)]
pub enum ItemKind {
    Fn(FnSig),
    Const {
        ty: TypeRef,
        value: ConstValue,
    },
    Static {
        ty: TypeRef,
        value: ConstValue,
    },
    Struct {
        generics: Generics,
        fields: Vec<Field>,
        /// `struct S;` / `struct S(..)`: also a value.
        unit_or_tuple: bool,
    },
    Union {
        generics: Generics,
        fields: Vec<Field>,
    },
    Enum {
        generics: Generics,
        variants: Vec<Variant>,
    },
    Trait {
        generics: Generics,
        supertraits: Vec<PathRef>,
        items: Vec<u32>,
    },
    TraitAlias,
    TypeAlias {
        generics: Generics,
        ty: Option<TypeRef>,
    },
    Mod {
        /// The local scope of an inline module.
        inline: Option<u32>,
        path_attr: Option<String>,
        macro_use: bool,
    },
    ExternCrate {
        krate: String,
        macro_use: bool,
    },
    MacroRules {
        export: bool,
    },
    /// One leaf of a `use` tree.
    Import(Import),
    Impl(ImplData),
    /// A macro called where an item stands.
    MacroCall {
        path: PathRef,
    },
}

#[derive(Debug, Clone)]
pub struct Import {
    /// The path as written, `self` leaves folded (`a::{self}` is `a`).
    pub path: PathRef,
    pub glob: bool,
    /// `use x as _;`.
    pub underscore: bool,
}

#[derive(Debug, Clone, Default)]
pub struct ImplData {
    pub generics: Generics,
    pub self_ty: TypeRef,
    pub trait_: Option<PathRef>,
    pub items: Vec<u32>,
    pub negative: bool,
}

#[derive(Debug, Clone)]
pub struct FnSig {
    pub generics: Generics,
    pub self_param: Option<SelfParam>,
    pub params: Vec<Param>,
    pub ret: Option<TypeRef>,
    pub has_body: bool,
    pub is_async: bool,
}

#[derive(Debug, Clone)]
pub struct Param {
    /// The name when the pattern is one (`x`, `mut x`).
    pub name: Option<String>,
    pub ty: TypeRef,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SelfParam {
    Value,
    Ref,
    RefMut,
    Typed(TypeRef),
}

#[derive(Debug, Clone)]
pub struct Field {
    /// `0`, `1`.. for a tuple field.
    pub name: String,
    pub name_range: Range<usize>,
    pub ty: TypeRef,
}

#[derive(Debug, Clone)]
pub struct Variant {
    pub name: String,
    pub name_range: Range<usize>,
    pub fields: Vec<Field>,
}

#[derive(Debug, Clone)]
pub enum ConstValue {
    Str(String),
    Path(PathRef),
    Other,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Generics {
    pub params: Vec<GenericParam>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenericParam {
    pub name: String,
    /// Trait bounds, where clauses included.
    pub bounds: Vec<PathRef>,
    pub is_type: bool,
}

/// A path as written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PathRef {
    /// `::a::b`.
    pub global: bool,
    pub segments: Vec<Segment>,
    /// `<T as Trait>::x`: `T`, and how many segments name the trait.
    pub qself: Option<Box<(TypeRef, usize)>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    pub name: String,
    pub range: Range<usize>,
    pub args: Vec<TypeRef>,
}

impl PathRef {
    /// A path of plain names (tests and queries): `a::b::C`.
    pub fn from_names(text: &str) -> PathRef {
        let global = text.starts_with("::");
        PathRef {
            global,
            segments: text
                .trim_start_matches("::")
                .split("::")
                .filter(|s| !s.is_empty())
                .map(|s| Segment {
                    name: s.trim().to_string(),
                    range: 0..0,
                    args: Vec::new(),
                })
                .collect(),
            qself: None,
        }
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.segments.iter().map(|s| s.name.as_str())
    }

    pub fn last(&self) -> Option<&Segment> {
        self.segments.last()
    }

    /// As written, without generic arguments.
    pub fn display(&self) -> String {
        let mut out = String::new();
        if let Some(q) = &self.qself {
            out.push('<');
            out.push_str(&q.0.display());
            if q.1 > 0 {
                out.push_str(" as ");
                out.push_str(
                    &(self.segments[..q.1].iter())
                        .map(|s| s.name.as_str())
                        .collect::<Vec<_>>()
                        .join("::"),
                );
            }
            out.push_str(">::");
            let rest: Vec<&str> = self.segments[q.1..]
                .iter()
                .map(|s| s.name.as_str())
                .collect();
            out.push_str(&rest.join("::"));
            return out;
        }
        if self.global {
            out.push_str("::");
        }
        out.push_str(&self.names().collect::<Vec<_>>().join("::"));
        out
    }
}

/// A declared type, as written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum TypeRef {
    Path(PathRef),
    Ref {
        inner: Box<TypeRef>,
        mutable: bool,
    },
    Ptr(Box<TypeRef>),
    Tuple(Vec<TypeRef>),
    Slice(Box<TypeRef>),
    Array(Box<TypeRef>),
    ImplTrait(Vec<PathRef>),
    DynTrait(Vec<PathRef>),
    Fn,
    Never,
    #[default]
    Unknown,
}

impl TypeRef {
    pub fn display(&self) -> String {
        match self {
            TypeRef::Path(p) => p.display(),
            TypeRef::Ref { inner, mutable } => {
                format!("&{}{}", if *mutable { "mut " } else { "" }, inner.display())
            }
            TypeRef::Ptr(t) => format!("*{}", t.display()),
            TypeRef::Tuple(v) => format!(
                "({})",
                v.iter()
                    .map(TypeRef::display)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            TypeRef::Slice(t) => format!("[{}]", t.display()),
            TypeRef::Array(t) => format!("[{}; _]", t.display()),
            TypeRef::ImplTrait(b) => format!(
                "impl {}",
                b.iter()
                    .map(PathRef::display)
                    .collect::<Vec<_>>()
                    .join(" + ")
            ),
            TypeRef::DynTrait(b) => format!(
                "dyn {}",
                b.iter()
                    .map(PathRef::display)
                    .collect::<Vec<_>>()
                    .join(" + ")
            ),
            TypeRef::Fn => "fn(..)".into(),
            TypeRef::Never => "!".into(),
            TypeRef::Unknown => "_".into(),
        }
    }
}

/// A file's text as an item tree needs it (its function bodies blanked,
/// offsets kept: `prefilter::for_item_tree`), `None` for the text itself.
pub type Skim = fn(&str) -> Option<String>;

impl ItemTree {
    /// [`ItemTree::parse`] of the text `skim` gives, the same tree for less
    /// parsing: what it blanks is what the tree does not record. A file
    /// whose skimmed text does not parse is parsed whole (the tree then
    /// says why it has no items, as the whole parse does).
    pub fn parse_skimmed(text: &str, skim: Skim) -> ItemTree {
        match skim(text) {
            Some(skimmed) => {
                let tree = ItemTree::parse(&skimmed);
                match tree.error {
                    None => tree,
                    Some(_) => ItemTree::parse(text),
                }
            }
            None => ItemTree::parse(text),
        }
    }

    /// The item tree of a file's text; a file that does not parse, or nests
    /// deeper than the parser's bounds, has none and says why.
    pub fn parse(text: &str) -> ItemTree {
        let within = lex::surely_within(text, MAX_NESTING, MAX_CHAIN) || {
            let n = lex::nesting(text);
            n.brackets <= MAX_NESTING && n.chain <= MAX_CHAIN
        };
        if !within {
            return ItemTree::failed("the file nests deeper than the parser's bounds".into());
        }
        let lines = LineTable::new(text);
        let parsed = parse_file_with(text, |input| {
            let mut c = Collector {
                lines: &lines,
                tree: ItemTree::default(),
            };
            c.tree.scopes.push(LocalScope {
                items: Vec::new(),
                module_item: None,
                range: 0..text.len(),
            });
            syn::Attribute::parse_inner(input)?;
            while !input.is_empty() {
                let item: syn::Item = input.parse()?;
                c.item(&item, 0, None);
            }
            Ok(c.tree)
        });
        let mut tree =
            parsed.unwrap_or_else(|e| ItemTree::failed(format!("could not parse the file: {e}")));
        for (i, item) in tree.items.iter().enumerate() {
            if !item.name.is_empty() {
                tree.by_name_start.insert(item.name_range.start, i as u32);
            }
            if let ItemKind::Enum { variants, .. } = &item.kind {
                for v in variants {
                    tree.variant_at.insert(v.name_range.start, i as u32);
                }
            }
        }
        tree
    }

    /// A file without items, and why.
    fn failed(why: String) -> ItemTree {
        ItemTree {
            scopes: vec![LocalScope::default()],
            error: Some(why),
            ..ItemTree::default()
        }
    }

    /// The innermost local scope holding `offset`: the last scope opened
    /// at or before it (scopes are numbered in the order they open), or
    /// the nearest of its parents that still holds it.
    pub fn scope_at(&self, offset: usize) -> u32 {
        let after = self.scopes[1..].partition_point(|s| s.range.start <= offset);
        let mut at = after as u32;
        while at != 0 {
            let scope = &self.scopes[at as usize];
            if scope.range.contains(&offset) {
                return at;
            }
            at = match scope.module_item {
                Some(item) => self.items[item as usize].scope,
                None => 0,
            };
        }
        0
    }
}

struct Collector<'a, 't> {
    lines: &'a LineTable<'t>,
    tree: ItemTree,
}

fn is_attr(attr: &syn::Attribute, name: &str) -> bool {
    attr.path().is_ident(name)
}

fn path_attr(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| {
        if !is_attr(a, "path") {
            return None;
        }
        let syn::Meta::NameValue(nv) = &a.meta else {
            return None;
        };
        match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        }
    })
}

impl Collector<'_, '_> {
    fn range(&self, span: proc_macro2::Span) -> Range<usize> {
        self.lines.range(span)
    }

    fn spanned(&self, node: &impl syn::spanned::Spanned) -> Range<usize> {
        self.range(node.span())
    }

    fn push(&mut self, item: Item) -> u32 {
        let id = self.tree.items.len() as u32;
        if item.container.is_none() {
            self.tree.scopes[item.scope as usize].items.push(id);
        }
        self.tree.items.push(item);
        id
    }

    #[allow(clippy::too_many_arguments)]
    fn new_item(
        &self,
        name: &syn::Ident,
        whole: Range<usize>,
        vis: &syn::Visibility,
        attrs: &[syn::Attribute],
        scope: u32,
        container: Option<u32>,
        kind: ItemKind,
    ) -> Item {
        Item {
            name: name.to_string().trim_start_matches("r#").to_string(),
            name_range: self.range(name.span()),
            range: whole,
            vis: vis_of(vis),
            cfgs: attrs.iter().filter_map(Cfg::from_attr).collect(),
            scope,
            container,
            kind,
        }
    }

    fn item(&mut self, item: &syn::Item, scope: u32, container: Option<u32>) {
        let whole = self.spanned(item);
        match item {
            syn::Item::Fn(f) => {
                let sig = self.sig(&f.sig, true);
                let it = self.new_item(
                    &f.sig.ident,
                    whole,
                    &f.vis,
                    &f.attrs,
                    scope,
                    container,
                    ItemKind::Fn(sig),
                );
                self.push(it);
            }
            syn::Item::Const(c) => {
                let kind = ItemKind::Const {
                    ty: self.ty(&c.ty),
                    value: self.const_value(&c.expr),
                };
                let it = self.new_item(&c.ident, whole, &c.vis, &c.attrs, scope, container, kind);
                self.push(it);
            }
            syn::Item::Static(s) => {
                let kind = ItemKind::Static {
                    ty: self.ty(&s.ty),
                    value: self.const_value(&s.expr),
                };
                let it = self.new_item(&s.ident, whole, &s.vis, &s.attrs, scope, container, kind);
                self.push(it);
            }
            syn::Item::Struct(s) => {
                let kind = ItemKind::Struct {
                    generics: self.generics(&s.generics),
                    fields: self.fields(&s.fields),
                    unit_or_tuple: !matches!(s.fields, syn::Fields::Named(_)),
                };
                let it = self.new_item(&s.ident, whole, &s.vis, &s.attrs, scope, container, kind);
                self.push(it);
            }
            syn::Item::Union(u) => {
                let kind = ItemKind::Union {
                    generics: self.generics(&u.generics),
                    fields: self.fields(&syn::Fields::Named(u.fields.clone())),
                };
                let it = self.new_item(&u.ident, whole, &u.vis, &u.attrs, scope, container, kind);
                self.push(it);
            }
            syn::Item::Enum(e) => {
                let variants = e
                    .variants
                    .iter()
                    .map(|v| Variant {
                        name: v.ident.to_string(),
                        name_range: self.range(v.ident.span()),
                        fields: self.fields(&v.fields),
                    })
                    .collect();
                let kind = ItemKind::Enum {
                    generics: self.generics(&e.generics),
                    variants,
                };
                let it = self.new_item(&e.ident, whole, &e.vis, &e.attrs, scope, container, kind);
                self.push(it);
            }
            syn::Item::Trait(t) => {
                let kind = ItemKind::Trait {
                    generics: self.generics(&t.generics),
                    supertraits: self.bounds(t.supertraits.iter()),
                    items: Vec::new(),
                };
                let it = self.new_item(&t.ident, whole, &t.vis, &t.attrs, scope, container, kind);
                let id = self.push(it);
                let mut members = Vec::new();
                for ti in &t.items {
                    if let Some(m) = self.trait_item(ti, scope, id) {
                        members.push(m);
                    }
                }
                if let ItemKind::Trait { items, .. } = &mut self.tree.items[id as usize].kind {
                    *items = members;
                }
            }
            syn::Item::TraitAlias(t) => {
                let it = self.new_item(
                    &t.ident,
                    whole,
                    &t.vis,
                    &t.attrs,
                    scope,
                    container,
                    ItemKind::TraitAlias,
                );
                self.push(it);
            }
            syn::Item::Type(t) => {
                let kind = ItemKind::TypeAlias {
                    generics: self.generics(&t.generics),
                    ty: Some(self.ty(&t.ty)),
                };
                let it = self.new_item(&t.ident, whole, &t.vis, &t.attrs, scope, container, kind);
                self.push(it);
            }
            syn::Item::Mod(m) => {
                let macro_use = m.attrs.iter().any(|a| is_attr(a, "macro_use"));
                let kind = ItemKind::Mod {
                    inline: None,
                    path_attr: path_attr(&m.attrs),
                    macro_use,
                };
                let it = self.new_item(&m.ident, whole, &m.vis, &m.attrs, scope, container, kind);
                let id = self.push(it);
                if let Some((brace, items)) = &m.content {
                    let inner = self.tree.scopes.len() as u32;
                    let range = self.range(brace.span.join());
                    self.tree.scopes.push(LocalScope {
                        items: Vec::new(),
                        module_item: Some(id),
                        range,
                    });
                    if let ItemKind::Mod { inline, .. } = &mut self.tree.items[id as usize].kind {
                        *inline = Some(inner);
                    }
                    for i in items {
                        self.item(i, inner, None);
                    }
                }
            }
            syn::Item::ExternCrate(e) => {
                let krate = e.ident.to_string();
                let name = e.rename.as_ref().map(|(_, n)| n).unwrap_or(&e.ident);
                let kind = ItemKind::ExternCrate {
                    krate,
                    macro_use: e.attrs.iter().any(|a| is_attr(a, "macro_use")),
                };
                let it = self.new_item(name, whole, &e.vis, &e.attrs, scope, container, kind);
                self.push(it);
            }
            syn::Item::Macro(m) => {
                if m.mac.path.is_ident("macro_rules")
                    && let Some(ident) = &m.ident
                {
                    let export = m.attrs.iter().any(|a| is_attr(a, "macro_export"));
                    let it = self.new_item(
                        ident,
                        whole,
                        &syn::Visibility::Inherited,
                        &m.attrs,
                        scope,
                        container,
                        ItemKind::MacroRules { export },
                    );
                    self.push(it);
                } else {
                    let path = self.path(&m.mac.path);
                    let range = path.last().map(|s| s.range.clone()).unwrap_or_default();
                    let it = Item {
                        name: String::new(),
                        name_range: range,
                        range: whole,
                        vis: Vis::Private,
                        cfgs: m.attrs.iter().filter_map(Cfg::from_attr).collect(),
                        scope,
                        container,
                        kind: ItemKind::MacroCall { path },
                    };
                    self.push(it);
                }
            }
            syn::Item::Use(u) => {
                let vis = vis_of(&u.vis);
                let cfgs: Vec<Cfg> = u.attrs.iter().filter_map(Cfg::from_attr).collect();
                let mut prefix = PathRef {
                    global: u.leading_colon.is_some(),
                    ..PathRef::default()
                };
                self.use_tree(&u.tree, &mut prefix, &vis, &cfgs, whole, scope);
            }
            syn::Item::Impl(i) => {
                let data = ImplData {
                    generics: self.generics(&i.generics),
                    self_ty: self.ty(&i.self_ty),
                    trait_: i.trait_.as_ref().map(|(p, _)| self.path(p)),
                    items: Vec::new(),
                    negative: i.modifiers.polarity.is_some(),
                };
                let it = Item {
                    name: String::new(),
                    name_range: self.spanned(&i.self_ty),
                    range: whole,
                    vis: Vis::Private,
                    cfgs: i.attrs.iter().filter_map(Cfg::from_attr).collect(),
                    scope,
                    container,
                    kind: ItemKind::Impl(data),
                };
                let id = self.push(it);
                let mut members = Vec::new();
                for ii in &i.items {
                    if let Some(m) = self.impl_item(ii, scope, id) {
                        members.push(m);
                    }
                }
                if let ItemKind::Impl(d) = &mut self.tree.items[id as usize].kind {
                    d.items = members;
                }
            }
            syn::Item::ForeignMod(f) => {
                for fi in &f.items {
                    match fi {
                        syn::ForeignItem::Fn(func) => {
                            let sig = self.sig(&func.sig, false);
                            let it = self.new_item(
                                &func.sig.ident,
                                self.spanned(func),
                                &func.vis,
                                &func.attrs,
                                scope,
                                container,
                                ItemKind::Fn(sig),
                            );
                            self.push(it);
                        }
                        syn::ForeignItem::Static(s) => {
                            let kind = ItemKind::Static {
                                ty: self.ty(&s.ty),
                                value: ConstValue::Other,
                            };
                            let it = self.new_item(
                                &s.ident,
                                self.spanned(s),
                                &s.vis,
                                &s.attrs,
                                scope,
                                container,
                                kind,
                            );
                            self.push(it);
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }

    fn trait_item(&mut self, ti: &syn::TraitItem, scope: u32, container: u32) -> Option<u32> {
        let whole = self.spanned(ti);
        let vis = syn::Visibility::Public(Default::default());
        let it = match ti {
            syn::TraitItem::Fn(f) => {
                let mut sig = self.sig(&f.sig, f.default.is_some());
                sig.has_body = f.default.is_some();
                self.new_item(
                    &f.sig.ident,
                    whole,
                    &vis,
                    &f.attrs,
                    scope,
                    Some(container),
                    ItemKind::Fn(sig),
                )
            }
            syn::TraitItem::Const(c) => {
                let kind = ItemKind::Const {
                    ty: self.ty(&c.ty),
                    value: (c.default.as_ref())
                        .map_or(ConstValue::Other, |(_, e)| self.const_value(e)),
                };
                self.new_item(
                    &c.ident,
                    whole,
                    &vis,
                    &c.attrs,
                    scope,
                    Some(container),
                    kind,
                )
            }
            syn::TraitItem::Type(t) => {
                let kind = ItemKind::TypeAlias {
                    generics: self.generics(&t.generics),
                    ty: t.default.as_ref().map(|(_, ty)| self.ty(ty)),
                };
                self.new_item(
                    &t.ident,
                    whole,
                    &vis,
                    &t.attrs,
                    scope,
                    Some(container),
                    kind,
                )
            }
            _ => return None,
        };
        Some(self.push(it))
    }

    fn impl_item(&mut self, ii: &syn::ImplItem, scope: u32, container: u32) -> Option<u32> {
        let whole = self.spanned(ii);
        let it = match ii {
            syn::ImplItem::Fn(f) => {
                let sig = self.sig(&f.sig, true);
                self.new_item(
                    &f.sig.ident,
                    whole,
                    &f.vis,
                    &f.attrs,
                    scope,
                    Some(container),
                    ItemKind::Fn(sig),
                )
            }
            syn::ImplItem::Const(c) => {
                let kind = ItemKind::Const {
                    ty: self.ty(&c.ty),
                    value: self.const_value(&c.expr),
                };
                self.new_item(
                    &c.ident,
                    whole,
                    &c.vis,
                    &c.attrs,
                    scope,
                    Some(container),
                    kind,
                )
            }
            syn::ImplItem::Type(t) => {
                let kind = ItemKind::TypeAlias {
                    generics: self.generics(&t.generics),
                    ty: Some(self.ty(&t.ty)),
                };
                self.new_item(
                    &t.ident,
                    whole,
                    &t.vis,
                    &t.attrs,
                    scope,
                    Some(container),
                    kind,
                )
            }
            _ => return None,
        };
        Some(self.push(it))
    }

    fn use_tree(
        &mut self,
        tree: &syn::UseTree,
        prefix: &mut PathRef,
        vis: &Vis,
        cfgs: &[Cfg],
        whole: Range<usize>,
        scope: u32,
    ) {
        let leaf = |c: &mut Self, path: PathRef, name: String, range: Range<usize>, glob| {
            let underscore = name == "_";
            c.push(Item {
                name,
                name_range: range,
                range: whole.clone(),
                vis: vis.clone(),
                cfgs: cfgs.to_vec(),
                scope,
                container: None,
                kind: ItemKind::Import(Import {
                    path,
                    glob,
                    underscore,
                }),
            });
        };
        match tree {
            syn::UseTree::Path(p) => {
                prefix.segments.push(self.segment(&p.ident));
                self.use_tree(&p.tree, prefix, vis, cfgs, whole, scope);
                prefix.segments.pop();
            }
            syn::UseTree::Name(n) => {
                let mut path = prefix.clone();
                let name = n.ident.to_string();
                let range = self.range(n.ident.span());
                if name == "self" {
                    // `use a::{self};` imports `a`.
                    let Some(last) = path.segments.last() else {
                        return;
                    };
                    let name = last.name.clone();
                    leaf(self, path, name, range, false);
                } else {
                    path.segments.push(self.segment(&n.ident));
                    let name = name.trim_start_matches("r#").to_string();
                    leaf(self, path, name, range, false);
                }
            }
            syn::UseTree::Rename(r) => {
                let mut path = prefix.clone();
                if r.ident != "self" {
                    path.segments.push(self.segment(&r.ident));
                }
                let name = r.rename.to_string();
                let range = self.range(r.rename.span());
                leaf(self, path, name, range, false);
            }
            syn::UseTree::Glob(g) => {
                let path = prefix.clone();
                let range = self.spanned(g);
                leaf(self, path, String::new(), range, true);
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(t, prefix, vis, cfgs, whole.clone(), scope);
                }
            }
        }
    }

    fn segment(&self, ident: &syn::Ident) -> Segment {
        Segment {
            name: ident.to_string().trim_start_matches("r#").to_string(),
            range: self.range(ident.span()),
            args: Vec::new(),
        }
    }

    fn sig(&self, sig: &syn::Signature, has_body: bool) -> FnSig {
        let mut generics = self.generics(&sig.generics);
        let mut self_param = None;
        let mut params = Vec::new();
        for arg in &sig.inputs {
            match arg {
                syn::FnArg::Receiver(r) => {
                    self_param = Some(match &r.kind {
                        syn::ReceiverKind::Reference(_, _, Some(_)) => SelfParam::RefMut,
                        syn::ReceiverKind::Reference(..) => SelfParam::Ref,
                        syn::ReceiverKind::Typed(_, ty) => SelfParam::Typed(self.ty(ty)),
                        _ => SelfParam::Value,
                    });
                }
                syn::FnArg::Typed(pt) => {
                    let name = match &*pt.pat {
                        syn::Pat::Ident(i) => Some(i.ident.to_string()),
                        _ => None,
                    };
                    let ty = self.ty(&pt.ty);
                    // `impl Trait` in argument position: an anonymous
                    // generic parameter.
                    params.push(Param { name, ty });
                }
            }
        }
        let ret = match &sig.output {
            syn::ReturnType::Default => None,
            syn::ReturnType::Type(_, ty) => Some(self.ty(ty)),
        };
        generics.params.shrink_to_fit();
        FnSig {
            generics,
            self_param,
            params,
            ret,
            has_body,
            is_async: sig.asyncness.is_some(),
        }
    }

    fn fields(&self, fields: &syn::Fields) -> Vec<Field> {
        fields
            .iter()
            .enumerate()
            .map(|(i, f)| match &f.ident {
                Some(id) => Field {
                    name: id.to_string().trim_start_matches("r#").to_string(),
                    name_range: self.range(id.span()),
                    ty: self.ty(&f.ty),
                },
                None => Field {
                    name: i.to_string(),
                    name_range: self.spanned(&f.ty),
                    ty: self.ty(&f.ty),
                },
            })
            .collect()
    }

    fn const_value(&self, e: &syn::Expr) -> ConstValue {
        match e {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => ConstValue::Str(s.value()),
            syn::Expr::Path(p) if p.qself.is_none() => ConstValue::Path(self.path(&p.path)),
            syn::Expr::Reference(r) => self.const_value(&r.expr),
            syn::Expr::Paren(p) => self.const_value(&p.expr),
            syn::Expr::Group(g) => self.const_value(&g.expr),
            _ => ConstValue::Other,
        }
    }

    pub(super) fn generics(&self, g: &syn::Generics) -> Generics {
        generics(self.lines, g)
    }

    fn bounds<'b>(&self, bounds: impl Iterator<Item = &'b syn::TypeParamBound>) -> Vec<PathRef> {
        trait_bounds(self.lines, bounds)
    }

    pub(super) fn path(&self, p: &syn::Path) -> PathRef {
        path_ref(self.lines, p, None)
    }

    pub(super) fn ty(&self, t: &syn::Type) -> TypeRef {
        type_ref(self.lines, t)
    }
}

/// A syn path as a [`PathRef`], its ranges read through `lines`.
pub fn path_ref(lines: &LineTable, p: &syn::Path, qself: Option<&syn::QSelf>) -> PathRef {
    PathRef {
        global: p.leading_colon.is_some(),
        segments: p
            .segments
            .iter()
            .map(|s| Segment {
                name: s.ident.to_string().trim_start_matches("r#").to_string(),
                range: lines.range(s.ident.span()),
                args: match &s.arguments {
                    syn::PathArguments::AngleBracketed(a) => a
                        .args
                        .iter()
                        .filter_map(|g| match g {
                            syn::GenericArgument::Type(t) => Some(type_ref(lines, t)),
                            _ => None,
                        })
                        .collect(),
                    _ => Vec::new(),
                },
            })
            .collect(),
        qself: qself.map(|q| Box::new((type_ref(lines, &q.ty), q.position))),
    }
}

/// A syn type as a [`TypeRef`].
pub fn type_ref(lines: &LineTable, t: &syn::Type) -> TypeRef {
    let bounds = |b: &syn::punctuated::Punctuated<syn::TypeParamBound, syn::Token![+]>| {
        b.iter()
            .filter_map(|b| match b {
                syn::TypeParamBound::Trait(t) => Some(path_ref(lines, &t.path, None)),
                _ => None,
            })
            .collect()
    };
    match t {
        syn::Type::Path(p) => TypeRef::Path(path_ref(lines, &p.path, p.qself.as_ref())),
        syn::Type::Reference(r) => TypeRef::Ref {
            inner: Box::new(type_ref(lines, &r.elem)),
            mutable: r.mutability.is_some(),
        },
        syn::Type::Ptr(p) => TypeRef::Ptr(Box::new(type_ref(lines, &p.elem))),
        syn::Type::Tuple(t) => TypeRef::Tuple(t.elems.iter().map(|e| type_ref(lines, e)).collect()),
        syn::Type::Slice(s) => TypeRef::Slice(Box::new(type_ref(lines, &s.elem))),
        syn::Type::Array(a) => TypeRef::Array(Box::new(type_ref(lines, &a.elem))),
        syn::Type::ImplTrait(i) => TypeRef::ImplTrait(bounds(&i.bounds)),
        syn::Type::TraitObject(o) => TypeRef::DynTrait(bounds(&o.bounds)),
        syn::Type::Paren(p) => type_ref(lines, &p.elem),
        syn::Type::Group(g) => type_ref(lines, &g.elem),
        syn::Type::FnPtr(_) => TypeRef::Fn,
        syn::Type::Never(_) => TypeRef::Never,
        _ => TypeRef::Unknown,
    }
}

/// The visibility `v` writes.
pub fn vis_of(v: &syn::Visibility) -> Vis {
    match v {
        syn::Visibility::Public(_) => Vis::Public,
        syn::Visibility::Inherited => Vis::Private,
        syn::Visibility::Restricted(r) => {
            let names: Vec<String> = r
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            match names.as_slice() {
                [c] if c == "crate" => Vis::Crate,
                [s] if s == "super" => Vis::Super,
                [s] if s == "self" => Vis::Private,
                _ => Vis::In(names),
            }
        }
    }
}

/// The generic parameters of `g` with their trait bounds, those of its
/// `where` clause added (the item tree's and a body's items alike).
pub(super) fn generics(lines: &LineTable, g: &syn::Generics) -> Generics {
    let bounds = |b: &syn::punctuated::Punctuated<syn::TypeParamBound, syn::Token![+]>| {
        trait_bounds(lines, b.iter())
    };
    let mut params: Vec<GenericParam> = (g.params.iter())
        .filter_map(|p| match p {
            syn::GenericParam::Type(t) => Some(GenericParam {
                name: t.ident.to_string(),
                bounds: bounds(&t.bounds),
                is_type: true,
            }),
            syn::GenericParam::Const(c) => Some(GenericParam {
                name: c.ident.to_string(),
                bounds: Vec::new(),
                is_type: false,
            }),
            _ => None,
        })
        .collect();
    if let Some(w) = &g.where_clause {
        for pred in &w.predicates {
            if let syn::WherePredicate::Type(t) = pred
                && let syn::Type::Path(tp) = &t.bounded_ty
                && tp.qself.is_none()
                && let Some(id) = tp.path.get_ident()
                && let Some(p) = params.iter_mut().find(|p| *id == p.name)
            {
                p.bounds.extend(bounds(&t.bounds));
            }
        }
    }
    Generics { params }
}

/// The traits among `bounds` (lifetimes and `use<..>` left out).
fn trait_bounds<'b>(
    lines: &LineTable,
    bounds: impl Iterator<Item = &'b syn::TypeParamBound>,
) -> Vec<PathRef> {
    bounds
        .filter_map(|b| match b {
            syn::TypeParamBound::Trait(t) => Some(path_ref(lines, &t.path, None)),
            _ => None,
        })
        .collect()
}
