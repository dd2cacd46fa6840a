//! Facts shared by several lints, and the two passes that produce them.
//!
//! 1. Per file, in parallel: read, parse once, extract [`FileFacts`]; the
//!    syntax tree is dropped right after.
//! 2. Per crate: resolve what needs the whole crate (string constants) and
//!    let every lint look at the facts of all files at once.

pub mod extract;
pub mod modules;
pub mod values;

use std::path::Path;

use crate::config::Vocabulary;
use crate::model::facts::{FileFacts, Inferred, InferredKind, StrExpr, ValueCall, ValueSet};
use crate::model::source::FileId;
use modules::{FilePlace, ModuleTree};

/// The facts of every file of one crate, and what is resolved across them.
pub struct CrateFacts<'a> {
    /// In a stable order: by path, so "first" and "second" mean what a reader expects.
    pub files: Vec<(FileId, &'a FileFacts)>,
    /// The names the crate's configuration gives.
    pub vocab: &'a Vocabulary,
    tree: ModuleTree,
    /// Where each file is in `files`: lints ask for every fact they read,
    /// and a search of the list made that the product of the two numbers.
    index: std::collections::HashMap<FileId, usize>,
    /// The value sets of the crate by the call they decide; `None` where two
    /// functions so named disagree (cfg variants, two types of one name).
    value_sets: std::collections::HashMap<&'a ValueCall, Option<(FileId, &'a ValueSet)>>,
}

impl<'a> CrateFacts<'a> {
    /// `files`: id, path and facts of each file of the crate.
    /// `package_root`: the folder of the crate's `Cargo.toml`, `None`
    /// outside any package (from discovery: the analysis reads no file).
    pub fn new(
        files: Vec<(FileId, &'a Path, &'a FileFacts)>,
        vocab: &'a Vocabulary,
        package_root: Option<&Path>,
    ) -> Self {
        let paths: Vec<(&Path, &FileFacts)> = files.iter().map(|(_, p, f)| (*p, *f)).collect();
        let tree = ModuleTree::build(&paths, package_root);
        let mut value_sets = std::collections::HashMap::new();
        for (id, _, facts) in &files {
            for set in &facts.value_sets {
                value_sets
                    .entry(&set.call)
                    .and_modify(|known: &mut Option<(FileId, &ValueSet)>| {
                        if known.is_some_and(|(_, k)| !same_values(k, set)) {
                            *known = None;
                        }
                    })
                    .or_insert(Some((*id, set)));
            }
        }
        CrateFacts {
            value_sets,
            index: (files.iter().enumerate())
                .map(|(i, (id, _, _))| (*id, i))
                .collect(),
            files: files.into_iter().map(|(id, _, f)| (id, f)).collect(),
            vocab,
            tree,
        }
    }

    fn index(&self, file: FileId) -> usize {
        self.index.get(&file).copied().unwrap_or(0)
    }

    /// The facts of one file of the crate.
    pub fn facts(&self, file: FileId) -> Option<&'a FileFacts> {
        self.index.get(&file).map(|&i| self.files[i].1)
    }

    /// The string value of an expression written in `file`, when the crate determines it.
    pub fn resolve(&self, file: FileId, e: &StrExpr) -> Option<String> {
        let i = self.index(file);
        self.tree.resolve(i, self.files[i].1, e)
    }

    /// The one closed set of values `call` gives, and the file defining it.
    pub fn value_set(&self, call: &ValueCall) -> Option<(FileId, &'a ValueSet)> {
        self.value_sets.get(call).copied().flatten()
    }

    /// What the crate pass inferred from the code, each with the place that
    /// made it count (for `backend-lint config`), in file order.
    #[cfg_attr(
        not(feature = "testing"),
        expect(dead_code, reason = "the `config` display of inferred names calls it")
    )]
    pub fn inferred(&self) -> Vec<Inferred> {
        let mut sets: Vec<(FileId, &ValueSet)> =
            self.value_sets.values().flatten().copied().collect();
        sets.sort_by_key(|(file, set)| (*file, set.span.start));
        (sets.into_iter())
            .map(|(_, set)| Inferred {
                kind: InferredKind::ValueSet,
                name: set.call.to_string(),
                span: set.span,
                why: format!("returns only {}", quoted_list(&set.values)),
            })
            .collect()
    }

    /// Where a file sits: its module, the `cfg`s of its `mod` declarations, test-only or not.
    pub fn place(&self, file: FileId) -> &FilePlace {
        &self.tree.places[self.index(file)]
    }
}

/// Two definitions give the same values, in any order.
fn same_values(a: &ValueSet, b: &ValueSet) -> bool {
    use std::collections::BTreeSet;
    a.values.iter().collect::<BTreeSet<_>>() == b.values.iter().collect::<BTreeSet<_>>()
}

/// `"a"`, `"b"` and `"c"`, for messages.
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
            extract::extract(input, SpanConv { file: 0 }, text, vocab)
        })
        .expect("parses")
    }

    /// A value set is inferred once per call, with its values and the name
    /// that defines it; two definitions that disagree give none.
    #[test]
    fn value_sets_are_inferred_with_their_place() {
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
        ";
        let facts = facts(text, &vocab);
        let krate = CrateFacts::new(vec![(0, Path::new("lib.rs"), &facts)], &vocab, None);
        let inferred = krate.inferred();
        assert_eq!(inferred.len(), 1, "{inferred:?}");
        let set = &inferred[0];
        assert_eq!(set.kind, InferredKind::ValueSet);
        assert_eq!(set.name, "Backend::as_str");
        assert_eq!(set.why, "returns only `\"cuda\"` and `\"metal\"`");
        assert_eq!(&text[set.span.start..set.span.end], "as_str");
    }
}
