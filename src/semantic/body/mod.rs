//! Function bodies and item signatures resolved: local scopes (`let`,
//! patterns, closure parameters, shadowing), generic parameters, `Self`,
//! paths, and method calls sent to their impls through declared types
//! ([`super::ty`]). A body is re-parsed from the text the model holds, on
//! demand: nothing of it is kept.
//!
//! One `Walker` goes over a file: `walk` visits its items and bodies,
//! `scopes` declares what blocks and patterns bind, `paths` resolves paths,
//! `use` trees and macro calls, `exprs` types the expressions a method call
//! needs, and `targets` answers what a resolved item's type and fields are.

mod exprs;
mod paths;
pub use paths::formatted;
mod scopes;
mod targets;
mod walk;

use std::ops::Range;

use syn::spanned::Spanned;
use syn::visit::{self, Visit};

use super::def_map::Ns;
use super::item_tree::type_ref;
use super::ty::{Ty, TyScope};
use super::{FileIdx, ItemId, Model, RefKind, Reference, Resolved};
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

/// The references of one file, and what each `to_string()` and
/// `format!("{}", x)` of it writes ([`Model::display_of`]) by the start
/// of its name.
pub fn file_references_and_displays(
    model: &Model,
    f: FileIdx,
    out: &mut Vec<Reference>,
) -> Vec<(usize, Resolved)> {
    let file = &model.files[f as usize];
    if file.tree.error.is_some() || model.def_map.module_at(f, &file.tree, 0).is_none() {
        return Vec::new();
    }
    let lines = LineTable::new(&file.text);
    let mut displays = Vec::new();
    let _ = parse_file_with(&file.text, |input| {
        let mut w = Walker::new(model, f, &lines, out);
        w.displays = Some(Vec::new());
        syn::Attribute::parse_inner(input)?;
        let result = (|| {
            while !input.is_empty() {
                let item: syn::Item = input.parse()?;
                w.top_item(&item);
            }
            Ok(())
        })();
        displays = w.displays.take().unwrap_or_default();
        result
    });
    displays
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
    /// When asked: what each `to_string()` and `format!("{}", x)` writes
    /// ([`Model::display_of`]), by the start of its name.
    displays: Option<Vec<(usize, Resolved)>>,
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
            displays: None,
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
}
