//! Facts shared by several lints, and the two passes that produce them.
//!
//! 1. Per file, in parallel: read, parse once, extract [`FileFacts`]; the
//!    syntax tree is dropped right after.
//! 2. Per crate: resolve what needs the whole crate (string constants) and
//!    let every lint look at the facts of all files at once.

pub mod cfg;
pub mod extract;
pub mod facts;
pub mod values;

use std::collections::HashMap;

use crate::source::FileId;
use facts::{FileFacts, StrExpr};

/// The facts of every file of one crate, and what is resolved across them.
pub struct CrateFacts<'a> {
    /// In a stable order: by path, so "first" and "second" mean what a reader expects.
    pub files: Vec<(FileId, &'a FileFacts)>,
    /// `const`/`static` string items by name; `None` when the name is ambiguous.
    consts: HashMap<&'a str, Option<&'a str>>,
}

impl<'a> CrateFacts<'a> {
    pub fn new(files: Vec<(FileId, &'a FileFacts)>) -> Self {
        let mut consts: HashMap<&str, Option<&str>> = HashMap::new();
        for (_, facts) in &files {
            for c in &facts.consts {
                consts
                    .entry(c.name.as_str())
                    .and_modify(|v| {
                        if *v != Some(c.value.as_str()) {
                            // Two items of that name with different values:
                            // resolve nothing rather than guess.
                            *v = None;
                        }
                    })
                    .or_insert(Some(c.value.as_str()));
            }
        }
        CrateFacts { files, consts }
    }

    /// The string value of an expression, when the crate determines it.
    pub fn resolve<'s>(&'s self, e: &'s StrExpr) -> Option<&'s str> {
        match e {
            StrExpr::Lit(s) => Some(s),
            StrExpr::Path(segments) => {
                let last = segments.last()?;
                self.consts.get(last.as_str()).copied().flatten()
            }
        }
    }
}
