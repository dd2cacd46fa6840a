//! The narrow API the lints ask: a path from a place, an item's facts, the
//! methods a receiver type's method name may call.

use std::path::Path;

use super::{ItemLoc, Model, Resolved, Why};

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
    /// What `path` (`a::b::C`, `Self::x`, `T::new`) names at `offset` of `file`.
    pub fn resolve_path(&self, file: &Path, offset: usize, path: &str) -> Resolved {
        let _ = (file, offset, path);
        Resolved::Unresolved(Why::NoSuchScope)
    }

    /// The facts of the item defined at `loc`.
    pub fn item_info(&self, loc: &ItemLoc) -> Option<ItemInfo> {
        let _ = loc;
        None
    }

    /// The methods `name` called on a receiver of type `ty` (as written at
    /// `offset` of `file`) may be.
    pub fn method_targets(&self, file: &Path, offset: usize, ty: &str, name: &str) -> Resolved {
        let _ = (file, offset, ty, name);
        Resolved::Unresolved(Why::NoSuchScope)
    }
}
