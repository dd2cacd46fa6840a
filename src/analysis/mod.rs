//! Facts shared by several lints, and the two passes that produce them.
//!
//! 1. Per file, in parallel: read, parse once, extract [`FileFacts`]; the
//!    syntax tree is dropped right after.
//! 2. Per crate: resolve what needs the whole crate (string constants) and
//!    let every lint look at the facts of all files at once.

pub mod extract;
pub mod infer;
pub mod modules;
pub mod values;

use std::path::Path;

use crate::config::Vocabulary;
use crate::model::facts::{FileFacts, StrExpr};
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
        CrateFacts {
            index: (files.iter().enumerate())
                .map(|(i, (id, _, _))| (*id, i))
                .collect(),
            files: files.into_iter().map(|(id, _, f)| (id, f)).collect(),
            vocab,
            tree,
            learned: None,
        }
    }

    /// With what the crate's code taught: findings say why a learned
    /// function registers.
    pub fn with_learned(mut self, learned: Option<&'a infer::Learned>) -> Self {
        self.learned = learned;
        self
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

    /// Where a file sits: its module, the `cfg`s of its `mod` declarations, test-only or not.
    pub fn place(&self, file: FileId) -> &FilePlace {
        &self.tree.places[self.index(file)]
    }
}
