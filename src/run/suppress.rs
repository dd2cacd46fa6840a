//! `--add-suppressions`: each file with findings rewritten with the
//! comments `lints::apply::add_suppressions` plans, written as `--fix`
//! writes (`run::fix::write`: replaced whole, permissions, byte-order mark
//! and line endings kept, never when changed on disk or a link).

use crate::lints::apply::add_suppressions::plan;
use crate::model::fix::apply;
use crate::run::Outcome;
use crate::run::fix::{Change, write};

/// What `--add-suppressions` did.
#[derive(Debug, Default)]
pub struct Added {
    /// New comments.
    pub comments: usize,
    /// Comments that got more lints.
    pub extended: usize,
    pub files: usize,
    /// Lines with findings that got no comment (they start inside a string
    /// or a block comment): path and line.
    pub not_covered: Vec<(String, usize)>,
    /// Files that could not be written, with why.
    pub errors: Vec<String>,
}

/// Write the suppression comments of every finding of `outcome`.
pub fn add_suppressions(outcome: &Outcome) -> Added {
    let mut files: Vec<_> = outcome.diagnostics.iter().map(|d| d.span.file).collect();
    files.sort_unstable();
    files.dedup();
    let mut added = Added::default();
    for file in files {
        let source = outcome.sources.get(file);
        let plan = plan(source, file, &outcome.diagnostics);
        added
            .not_covered
            .extend((plan.not_covered.iter()).map(|&line| (source.display.clone(), line)));
        if plan.edits.is_empty() {
            continue;
        }
        // Edits planned for the text read, whose comments the scanner found.
        let new = match apply(&source.text, &plan.edits.iter().collect::<Vec<_>>()) {
            Ok(new) => new,
            Err(e) => {
                added.errors.push(format!("`{}`: {e}", source.display));
                continue;
            }
        };
        let change = Change {
            path: source.path.clone(),
            display: source.display.clone(),
            old: source.text.clone(),
            new: new.into(),
        };
        match write(std::slice::from_ref(&change)).pop() {
            None => {
                added.comments += plan.added;
                added.extended += plan.extended;
                added.files += 1;
            }
            Some(not) => added.errors.push(format!("`{}`: {}", not.display, not.why)),
        }
    }
    added
}
