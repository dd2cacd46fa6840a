//! Facts shared by several lints, and the two passes that produce them.
//!
//! 1. Per file, in parallel: read, parse once, extract [`FileFacts`]; the
//!    syntax tree is dropped right after.
//! 2. Per crate: resolve what needs the whole crate (string constants) and
//!    let every lint look at the facts of all files at once.

pub mod callees;
pub mod extract;
pub mod infer;
pub mod modules;
pub mod shared;
pub mod values;

use std::path::Path;

use crate::config::Vocabulary;
use crate::model::facts::{
    ContextFn, FileFacts, FnDef, Inferred, InferredKind, NormalizerFn, Operand, PlatformFn,
    StrExpr, StrKind, ValueCall, ValueSet,
};
use crate::model::source::FileId;
use modules::{FilePlace, ModuleTree};

/// The facts of every file of one crate, and what is resolved across them.
pub struct CrateFacts<'a> {
    /// In a stable order: by path, so "first" and "second" mean what a reader expects.
    pub files: Vec<(FileId, &'a FileFacts)>,
    /// The names the crate's configuration gives.
    pub vocab: &'a Vocabulary,
    tree: ModuleTree,
    /// What the crate's code taught (issue 19), if anything.
    pub learned: Option<&'a infer::Learned>,
    /// Where each file is in `files`: lints ask for every fact they read,
    /// and a search of the list made that the product of the two numbers.
    index: std::collections::HashMap<FileId, usize>,
    /// The value sets of the crate by the call they decide; `None` where two
    /// functions so named disagree (cfg variants, two types of one name).
    value_sets: std::collections::HashMap<&'a ValueCall, Option<(FileId, &'a ValueSet)>>,
    /// The functions normalizing a string parameter by call; `None` where
    /// two so named normalize different parameters.
    normalizers: std::collections::HashMap<&'a ValueCall, Option<(FileId, &'a NormalizerFn)>>,
    /// The functions returning platform values by call; `None` where two
    /// so named disagree.
    platform_fns: std::collections::HashMap<&'a ValueCall, Option<(FileId, &'a PlatformFn)>>,
    /// The functions returning a context they gave a backend, by call;
    /// `None` where two so named are defined.
    context_fns: std::collections::HashMap<&'a ValueCall, Option<(FileId, &'a ContextFn)>>,
    /// The type of each field of the crate's structs ([`FieldDef`]);
    /// `None` where two disagree or it is a type parameter.
    fields: std::collections::HashMap<(&'a str, &'a str), Option<&'a str>>,
    /// How many times the crate declares each type name.
    declared: std::collections::HashMap<&'a str, usize>,
    /// What the other packages of the configuration teach (issue 19).
    shared: Option<&'a shared::Shared>,
    /// The crate's canonicalizers of one parameter: the crate root of the
    /// file defining each, its module path, its definition.
    canonicalizers: Vec<(usize, Vec<String>, &'a FnDef)>,
    /// The semantic model of the crate, built on the first call it must
    /// name ([`CrateFacts::with_model`]).
    model: Option<ModelCx<'a>>,
    /// Where each file of the crate is.
    paths: std::collections::HashMap<FileId, &'a Path>,
    /// The value sets and platform functions of the crate by where their
    /// name is defined: what a call the model resolves reaches.
    sets_at: std::collections::HashMap<(FileId, usize), &'a ValueSet>,
    fns_at: std::collections::HashMap<(FileId, usize), &'a PlatformFn>,
    /// The names of those functions: a call named otherwise reaches none,
    /// and is not worth building the model for.
    learned_names: std::collections::HashSet<&'a str>,
}

/// The model of a crate and how its places are named in the run.
#[derive(Clone, Copy)]
pub struct ModelCx<'a> {
    pub model: &'a crate::semantic::Lazy,
    /// The file of the run at a path the model names.
    pub file_id: &'a (dyn Fn(&Path) -> Option<FileId> + Sync),
}

/// How a call was tied to the function deciding its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decided {
    /// The semantic model resolved the call to its definition.
    Resolved,
    /// By the callee's name (and its receiver's type as written): the
    /// model could not resolve it, or was not needed.
    ByName,
}

/// Wrappers of wrappers followed at most: far beyond real code, and a
/// cycle (`a` returns `b(..)`, `b` returns `a(..)`) ends.
const MAX_WRAPPERS: usize = 16;

impl<'a> CrateFacts<'a> {
    /// `files`: id, path and facts of each file of the crate.
    /// `package_root`: the folder of the crate's `Cargo.toml`, `None`
    /// outside any package (from discovery: the analysis reads no file).
    #[cfg(test)]
    pub fn new(
        files: Vec<(FileId, &'a Path, &'a FileFacts)>,
        vocab: &'a Vocabulary,
        package_root: Option<&Path>,
    ) -> Self {
        Self::with_tree(files, vocab, package_root, None)
    }

    /// [`Self::new`], with the module tree of the same files kept from a
    /// run before when given (the language server's: see
    /// [`ModuleTree::inputs_of`]).
    pub fn with_tree(
        files: Vec<(FileId, &'a Path, &'a FileFacts)>,
        vocab: &'a Vocabulary,
        package_root: Option<&Path>,
        tree: Option<ModuleTree>,
    ) -> Self {
        let paths: Vec<(&Path, &FileFacts)> = files.iter().map(|(_, p, f)| (*p, *f)).collect();
        let tree = tree.unwrap_or_else(|| ModuleTree::build(&paths, package_root));
        let mut value_sets = std::collections::HashMap::new();
        for (id, _, facts) in &files {
            for set in &facts.value_sets {
                value_sets
                    .entry(&set.call)
                    .and_modify(|known: &mut Option<(FileId, &ValueSet)>| {
                        if known.is_some_and(|(_, k)| !k.same_values(set)) {
                            *known = None;
                        }
                    })
                    .or_insert(Some((*id, set)));
            }
        }
        let mut platform_fns = std::collections::HashMap::new();
        for (id, _, facts) in &files {
            for f in &facts.platform_fns {
                platform_fns
                    .entry(&f.call)
                    .and_modify(|known: &mut Option<(FileId, &PlatformFn)>| {
                        if known.is_some_and(|(_, k)| k.returns != f.returns) {
                            *known = None;
                        }
                    })
                    .or_insert(Some((*id, f)));
            }
        }
        let mut normalizers = std::collections::HashMap::new();
        for (id, _, facts) in &files {
            for f in &facts.normalizers {
                normalizers
                    .entry(&f.call)
                    .and_modify(|known: &mut Option<(FileId, &NormalizerFn)>| {
                        if known.is_some_and(|(_, k)| k.param != f.param) {
                            *known = None;
                        }
                    })
                    .or_insert(Some((*id, f)));
            }
        }
        let mut context_fns = std::collections::HashMap::new();
        for (id, _, facts) in &files {
            for f in &facts.context_fns {
                context_fns
                    .entry(&f.call)
                    .and_modify(|known: &mut Option<_>| *known = None)
                    .or_insert(Some((*id, f)));
            }
        }
        let mut fields = std::collections::HashMap::new();
        let mut declared = std::collections::HashMap::new();
        for (_, _, facts) in &files {
            // Fields of the files defining a value set only (a struct
            // holding the enum beside it, as wgpu-types' `AdapterInfo`):
            // the prefilter parses those in every mode. The other files'
            // are followed in the file itself (`extract`).
            let defined = match facts.value_sets.is_empty() {
                true => &[][..],
                false => &facts.fields[..],
            };
            for f in defined {
                fields
                    .entry((f.owner.as_str(), f.field.as_str()))
                    .and_modify(|known: &mut Option<&str>| {
                        if *known != f.ty.as_deref() {
                            *known = None;
                        }
                    })
                    .or_insert(f.ty.as_deref());
            }
            for t in &facts.types {
                *declared.entry(t.as_str()).or_default() += 1;
            }
        }
        let mut canonicalizers = Vec::new();
        for (i, (_, _, facts)) in files.iter().enumerate() {
            let place = &tree.places[i];
            for def in facts.canonicalizers.iter().filter(|d| d.params == 1) {
                let scope = facts.scopes.get(def.scope as usize).into_iter().flatten();
                let module: Option<Vec<String>> = (place.module.iter().chain(scope))
                    .map(|s| s.module().map(str::to_string))
                    .collect();
                canonicalizers.extend(module.map(|m| (place.root, m, def)));
            }
        }
        let mut sets_at = std::collections::HashMap::new();
        let mut fns_at = std::collections::HashMap::new();
        let mut learned_names = std::collections::HashSet::new();
        for (_, _, facts) in &files {
            for set in &facts.value_sets {
                sets_at.insert((set.span.file, set.span.start), set);
                learned_names.insert(set.call.name.as_str());
            }
            for f in &facts.platform_fns {
                fns_at.insert((f.span.file, f.span.start), f);
                learned_names.insert(f.call.name.as_str());
            }
        }
        CrateFacts {
            model: None,
            paths: files.iter().map(|(id, p, _)| (*id, *p)).collect(),
            sets_at,
            fns_at,
            learned_names,
            canonicalizers,
            value_sets,
            normalizers,
            platform_fns,
            context_fns,
            fields,
            declared,
            shared: None,
            index: (files.iter().enumerate())
                .map(|(i, (id, _, _))| (*id, i))
                .collect(),
            files: files.into_iter().map(|(id, _, f)| (id, f)).collect(),
            vocab,
            tree,
            learned: None,
        }
    }

    /// The module tree, to keep for the next run of the same files.
    pub fn into_tree(self) -> ModuleTree {
        self.tree
    }

    /// With what the crate's code taught: findings say why a learned
    /// function registers.
    pub fn with_learned(mut self, learned: Option<&'a infer::Learned>) -> Self {
        self.learned = learned;
        self
    }

    /// With what the other packages of its configuration define: value
    /// sets and struct fields of types the crate does not declare itself.
    pub fn with_shared(mut self, shared: Option<&'a shared::Shared>) -> Self {
        self.shared = shared;
        self
    }

    /// With the semantic model of the crate: a call it resolves is decided
    /// by the function it reaches, not by its name.
    pub fn with_model(mut self, model: Option<ModelCx<'a>>) -> Self {
        self.model = model;
        self
    }

    /// The definitions (file and start of the name) a call reaches, when
    /// the model resolves it: the outermost call written that resolves to
    /// items of the inputs (one that the standard library's or another
    /// crate's function passes the value on, `.to_string()`, `.as_str()`,
    /// is looked through); a `to_string()` of the standard library's, or
    /// a `format!("{}", x)`, reaches the `fmt` of its receiver's `impl
    /// Display`. `None`: decided by name. The model is built only for a
    /// call named like a function that decides values (`to_string` and
    /// `format` like a `Display` set).
    fn targets(&self, call: &ValueCall) -> Option<Vec<(FileId, usize)>> {
        let cx = self.model?;
        let learned = |name: &str| {
            let name = match name {
                "format" => "to_string",
                other => other,
            };
            self.learned_names.contains(name)
                // Another package's set: only a model holding other
                // packages may resolve a call to it.
                || (self.shared.is_some_and(|s| s.has_name(name))
                    && cx.model.reaches_others())
        };
        if !call.sites.iter().any(|s| learned(&s.name)) {
            return None;
        }
        for site in &call.sites {
            let path = self.paths.get(&site.span.file)?;
            let range = site.span.start..site.span.end;
            let target = match site.name.as_str() {
                "format" => cx.model.display_at(path, &range, &site.name)?,
                crate::analysis::values::DEBUG => cx.model.display_at(path, &range, "format")?,
                name => match cx.model.target_at(path, &range, name)? {
                    // std's `ToString`: what the receiver's `Display` writes.
                    crate::semantic::Resolved::External if name == "to_string" => {
                        cx.model.display_at(path, &range, name)?
                    }
                    other => other,
                },
            };
            match target {
                crate::semantic::Resolved::Item(locs) => {
                    return Some(
                        (locs.iter())
                            .map(|l| ((cx.file_id)(&l.file).unwrap_or(FileId::MAX), l.name.start))
                            .collect(),
                    );
                }
                crate::semantic::Resolved::External | crate::semantic::Resolved::Local => {}
                crate::semantic::Resolved::Unresolved(_) => return None,
            }
        }
        None
    }

    /// How `call` is tied to the function deciding its value.
    pub fn decided(&self, call: &ValueCall) -> Decided {
        match self.targets(call) {
            Some(_) => Decided::Resolved,
            None => Decided::ByName,
        }
    }

    /// What the definitions a resolved call reaches give, each by `of`:
    /// the one answer of all of them. A trait's declaration (first of
    /// several: the trait's, then its impls') may give none.
    fn of_items<T: Copy>(
        items: &[(FileId, usize)],
        of: impl Fn(&(FileId, usize)) -> Option<T>,
        same: impl Fn(&T, &T) -> bool,
    ) -> Option<T> {
        let mut found: Option<T> = None;
        for (i, item) in items.iter().enumerate() {
            match of(item) {
                Some(v) => match &found {
                    Some(known) if !same(known, &v) => return None,
                    Some(_) => {}
                    None => found = Some(v),
                },
                None if i == 0 && items.len() > 1 => {}
                None => return None,
            }
        }
        found
    }

    fn index(&self, file: FileId) -> usize {
        self.index.get(&file).copied().unwrap_or(0)
    }

    /// The facts of one file of the crate.
    pub fn facts(&self, file: FileId) -> Option<&'a FileFacts> {
        self.index.get(&file).map(|&i| self.files[i].1)
    }

    /// Which item a path written in `file` names ([`ModuleTree::item_path`]).
    pub fn item_path(&self, file: FileId, segments: &[String], scope: u32) -> Option<String> {
        let i = self.index(file);
        self.tree.item_path(i, self.files[i].1, segments, scope)
    }

    /// The string value of an expression written in `file`, when the crate determines it.
    pub fn resolve(&self, file: FileId, e: &StrExpr) -> Option<String> {
        let i = self.index(file);
        self.tree.resolve(i, self.files[i].1, e)
    }

    /// The one closed set of values `call` gives, and the file defining it:
    /// the crate's own, or, for a type the crate does not declare, that of
    /// another package of its configuration. A call on a field
    /// (`info.backend.to_str()`) is that of the field's type.
    pub fn value_set(&self, file: FileId, call: &ValueCall) -> Option<(FileId, &'a ValueSet)> {
        if let Some(items) = self.targets(call) {
            let shared = self.shared;
            return Self::of_items(
                &items,
                |&(f, at)| match self.sets_at.get(&(f, at)) {
                    Some(set) => Some((f, *set)),
                    None => shared?.value_set_at(f, at),
                },
                |a, b| a.1.same_values(b.1),
            );
        }
        if call.opaque {
            return None;
        }
        let resolved;
        let call = match call.fields.is_empty() {
            true => call,
            false => {
                resolved = self.through_fields(file, call)?;
                &resolved
            }
        };
        if let Some(own) = self.value_sets.get(call) {
            return *own;
        }
        let ty = call.ty.as_deref()?;
        if self.declared.contains_key(ty) {
            return None;
        }
        self.shared?.value_set(call)
    }

    /// The function normalizing a string parameter that `call` calls: the
    /// crate's, else (for a type the crate does not declare, or a free
    /// function it does not define) another package's of the group.
    pub fn normalizer(&self, call: &ValueCall) -> Option<(FileId, &'a NormalizerFn)> {
        if let Some(own) = self.normalizers.get(call) {
            return *own;
        }
        if call
            .ty
            .as_deref()
            .is_some_and(|t| self.declared.contains_key(t))
        {
            return None;
        }
        self.shared?.normalizer(call)
    }

    /// `info.backend.to_str()`, written in `file`, as `Backend::to_str`,
    /// when each field's type is known: from the one struct so named the
    /// crate declares (in `file` or in a file defining a value set), else
    /// from the one the other packages declare.
    fn through_fields(&self, file: FileId, call: &ValueCall) -> Option<ValueCall> {
        let here = self.facts(file).map_or(&[][..], |f| &f.fields[..]);
        let mut ty: &str = call.ty.as_deref()?;
        for field in &call.fields {
            ty = match self.declared.get(ty) {
                Some(1) => match here.iter().find(|f| f.owner == ty && f.field == *field) {
                    Some(f) => f.ty.as_deref()?,
                    None => self.fields.get(&(ty, field.as_str())).copied().flatten()?,
                },
                Some(_) => return None,
                None => self.shared?.field_type(ty, field)?,
            };
        }
        Some(ValueCall {
            ty: Some(ty.to_string()),
            name: call.name.clone(),
            ..ValueCall::default()
        })
    }

    /// What an operand holds once the package's functions are known: a call
    /// of an inferred source or canonicalizer (or a wrapper of one) is
    /// [`Operand::Raw`] or [`Operand::Canonical`], any other call
    /// [`Operand::Other`].
    pub fn holds(&self, operand: &Operand) -> Operand {
        match operand {
            Operand::Call(call) => self
                .platform_fn(call)
                .map_or(Operand::Other, |(kind, _)| kind),
            other => other.clone(),
        }
    }

    /// Why an operand holds a platform value when the code taught it, for
    /// messages: "`platform_of` returns `c.platform_name()`, a raw platform value".
    pub fn why(&self, operand: &Operand) -> Option<String> {
        let Operand::Call(call) = operand else {
            return None;
        };
        let (kind, f) = self.platform_fn(call)?;
        let how = match self.decided(call) {
            Decided::Resolved => "the call resolves to it",
            Decided::ByName => "the call matched by name",
        };
        Some(format!("{}; {how}", why(f, &kind)))
    }

    /// The declared return type of the function a call of the package
    /// calls (not through its wrappers).
    pub fn returns(&self, call: &ValueCall) -> Option<StrKind> {
        Some(self.first_platform_fn(call)?.ty)
    }

    /// The function a call of the package calls, when it is a platform
    /// function: the one the model resolves it to, else the one so named.
    fn first_platform_fn(&self, call: &ValueCall) -> Option<&'a PlatformFn> {
        if let Some(items) = self.targets(call) {
            return Self::of_items(
                &items,
                |at| self.fns_at.get(at).copied(),
                |a, b| a.returns == b.returns,
            );
        }
        Some(self.platform_fns.get(call).copied().flatten()?.1)
    }

    /// The platform kind a call gives, through wrappers, and the function
    /// called.
    fn platform_fn(&self, call: &ValueCall) -> Option<(Operand, &'a PlatformFn)> {
        let first = self.first_platform_fn(call)?;
        let mut f = first;
        for _ in 0..MAX_WRAPPERS {
            match &f.returns {
                Operand::Call(next) => f = self.platform_fns.get(next).copied().flatten()?.1,
                kind => return Some((kind.clone(), first)),
            }
        }
        None
    }

    /// The backend a context made by `call` is given there, when the
    /// function gives every context it returns the same one: its platform
    /// and the function.
    pub fn context_backend(&self, call: &ValueCall) -> Option<(String, &'a ContextFn)> {
        let (file, f) = self.context_fns.get(call).copied().flatten()?;
        let mut platforms = f
            .backends
            .iter()
            .map(|b| self.resolve(file, &b.value.platform));
        let first = platforms.next()??;
        platforms
            .all(|p| p.as_ref() == Some(&first))
            .then_some((first, f))
    }

    /// What the crate pass inferred from the code, each with the place that
    /// made it count (for `backend-lint config`), in file order.
    pub fn inferred(&self) -> Vec<Inferred> {
        let sets = self.value_sets.values().flatten().map(|(_, set)| Inferred {
            kind: InferredKind::ValueSet,
            name: set.call.to_string(),
            span: set.span,
            line: set.line,
            why: format!("returns only {}", quoted_list(&set.values)),
            key: Vec::new(),
        });
        let fns = self.platform_fns.values().flatten().filter_map(|(_, f)| {
            let (kind, _) = self.platform_fn(&f.call)?;
            let kind_of = match kind {
                Operand::Raw => InferredKind::Source,
                _ => InferredKind::Canonicalizer,
            };
            Some(Inferred {
                kind: kind_of,
                name: f.call.to_string(),
                span: f.span,
                line: f.line,
                why: why(f, &kind),
                key: Vec::new(),
            })
        });
        let normalizers = self.normalizers.values().flatten().map(|(_, f)| Inferred {
            kind: InferredKind::Normalizer,
            name: f.call.to_string(),
            span: f.span,
            line: f.line,
            why: f.describe(),
            key: Vec::new(),
        });
        let mut all: Vec<Inferred> = sets.chain(fns).chain(normalizers).collect();
        all.sort_by_key(|i| (i.span.file, i.span.start));
        all
    }

    /// Where a file sits: its module, the `cfg`s of its `mod` declarations, test-only or not.
    pub fn place(&self, file: FileId) -> &FilePlace {
        &self.tree.places[self.index(file)]
    }

    /// The canonicalizers (configured or learned) defined in the crate root
    /// of `file`, each with the path of its module from the crate root
    /// (`["platform"]` for `crate::platform::canonicalize_platform`). Only
    /// functions of one parameter: what a fix can call on a value.
    pub fn canonicalizers(&self, file: FileId) -> Vec<(Vec<String>, &'a FnDef)> {
        let root = self.place(file).root;
        (self.canonicalizers.iter())
            .filter(|(r, _, _)| *r == root)
            .map(|(_, module, def)| (module.clone(), *def))
            .collect()
    }

    /// The canonicalizer of the crate that the path `segments`, written in
    /// `file` in scope `scope`, names (through `use`s and re-exports);
    /// `None` when it names another item, or which one is not known (a
    /// glob import, another crate's function).
    pub fn canonicalizer_named(
        &self,
        file: FileId,
        scope: u32,
        segments: &[String],
    ) -> Option<&'a FnDef> {
        let named = self.item_path(file, segments, scope)?;
        let root = self.place(file).root;
        (self.canonicalizers(file).into_iter()).find_map(|(module, def)| {
            let path = (module.iter().map(String::as_str))
                .chain([def.name.as_str()])
                .collect::<Vec<_>>()
                .join("::");
            (named == format!("{root}:{path}")).then_some(def)
        })
    }
}

/// "`platform_of` returns `c.platform_name()`, a raw platform value".
fn why(f: &PlatformFn, kind: &Operand) -> String {
    let what = match kind {
        Operand::Raw => "a raw platform value",
        _ => "a canonical platform value",
    };
    format!("`{}` returns `{}`, {what}", f.call, f.text)
}

/// `"a"`, `"b"` and `"c"`, for messages.
/// The last segment of a type's path as written (`crate::gpu::Device`:
/// `Device`), by which the walk names a type.
pub fn last_segment(path: &str) -> &str {
    path.rsplit("::").next().unwrap_or(path)
}

/// The name of a type as written (`wasmi::LinkerInner<T>`: `LinkerInner`).
pub fn type_ident(t: &str) -> &str {
    last_segment(t.split('<').next().unwrap_or(t).trim())
}

pub fn quoted_list(values: &[String]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| format!("`\"{v}\"`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => quoted.concat(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse::{SpanConv, parse_file_with};

    fn facts(text: &str, vocab: &Vocabulary) -> FileFacts {
        parse_file_with(text, |input| {
            extract::extract(input, SpanConv { file: 0 }, text, text, vocab)
        })
        .expect("parses")
    }

    /// A value set is inferred once per call, with its values and the name
    /// that defines it (two definitions that disagree give none); a source
    /// and a canonicalizer with what they return.
    #[test]
    fn inferred_names_come_with_their_place() {
        let vocab = Vocabulary::default();
        let text = "
            enum Backend { Cuda, Metal }
            impl Backend {
                fn as_str(&self) -> &str { match self { Self::Cuda => \"cuda\", Self::Metal => \"metal\" } }
            }
            #[cfg(a)]
            fn platform_name(k: u8) -> &'static str { \"cuda\" }
            #[cfg(not(a))]
            fn platform_name(k: u8) -> &'static str { \"rocm\" }
            fn platform_of(c: &Client) -> String { c.platform() }
            fn canonical_of(c: &Client) -> String { canonicalize_platform(&platform_of(c)) }
        ";
        let facts = facts(text, &vocab);
        let krate = CrateFacts::new(vec![(0, Path::new("lib.rs"), &facts)], &vocab, None);
        let inferred = krate.inferred();
        let shown: Vec<(InferredKind, &str, &str, &str)> = (inferred.iter())
            .map(|i| {
                (
                    i.kind,
                    i.name.as_str(),
                    i.why.as_str(),
                    &text[i.span.start..i.span.end],
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                (
                    InferredKind::ValueSet,
                    "Backend::as_str",
                    "returns only `\"cuda\"` and `\"metal\"`",
                    "as_str"
                ),
                (
                    InferredKind::Source,
                    "platform_of",
                    "`platform_of` returns `c.platform()`, a raw platform value",
                    "platform_of"
                ),
                (
                    InferredKind::Canonicalizer,
                    "canonical_of",
                    "`canonical_of` returns `canonicalize_platform(&platform_of(c))`, a canonical platform value",
                    "canonical_of"
                ),
            ]
        );
    }
}

#[cfg(test)]
mod model_tests {
    use super::*;
    use crate::syntax::parse::{SpanConv, parse_file_with};
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// The model is built only for a call it may decide: one named like a
    /// learned function (`to_string` like a `Display` set, whose `fmt` the
    /// model finds from the receiver's type), not `label`, which names
    /// none.
    #[test]
    fn the_model_is_built_only_for_a_call_it_may_decide() {
        let text = "
            pub enum Backend { Cuda, Metal }
            impl std::fmt::Display for Backend {
                fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    match self { Backend::Cuda => write!(f, \"cuda\"), Backend::Metal => write!(f, \"metal\") }
                }
            }
            pub fn is_gpu() -> bool { current().to_string() == \"gpu\" }
            pub fn is_rocm() -> bool { other().label() == \"rocm\" }
        ";
        let vocab = Vocabulary::default();
        let facts = parse_file_with(text, |input| {
            extract::extract(input, SpanConv { file: 0 }, text, text, &vocab)
        })
        .expect("parses");
        static BUILDS: AtomicUsize = AtomicUsize::new(0);
        let lazy = crate::semantic::Lazy::new(|| {
            BUILDS.fetch_add(1, Ordering::SeqCst);
            None
        });
        let file_id = |_: &Path| None;
        let krate = CrateFacts::new(vec![(0, Path::new("lib.rs"), &facts)], &vocab, None)
            .with_model(Some(ModelCx {
                model: &lazy,
                file_id: &file_id,
            }));
        let calls: Vec<&ValueCall> = (facts.comparisons.iter())
            .flat_map(|c| &c.sides)
            .filter_map(|s| match &s.operand {
                Operand::Call(c) => Some(c),
                _ => None,
            })
            .collect();
        assert_eq!(calls.len(), 2, "{:?}", facts.comparisons);
        let (display, label) = (calls[0], calls[1]);
        assert_eq!(krate.decided(label), Decided::ByName);
        assert_eq!(BUILDS.load(Ordering::SeqCst), 0);
        // No model is built here: decided by name still.
        assert_eq!(krate.decided(display), Decided::ByName);
        assert_eq!(BUILDS.load(Ordering::SeqCst), 1);
    }
}
