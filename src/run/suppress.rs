//! `--add-suppressions`: each file with findings rewritten with the
//! comments `lints::apply::add_suppressions` plans, replaced whole
//! (`atomic::replace`: permissions kept; the edits keep the byte-order mark
//! and the line endings).

use crate::lints::apply::add_suppressions::plan;
use crate::run::{Outcome, atomic};

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
        // The file as it was read, or it changed meanwhile and the edits
        // (byte ranges of what was read) no longer apply.
        match std::fs::read(&source.path) {
            Ok(now) if now == source.text.as_bytes() => {}
            Ok(_) => {
                added.errors.push(format!(
                    "`{}` changed since it was read; run again",
                    source.display
                ));
                continue;
            }
            Err(e) => {
                added
                    .errors
                    .push(format!("cannot read `{}`: {e}", source.display));
                continue;
            }
        }
        let text = crate::model::edits::apply(&source.text, &plan.edits);
        match atomic::replace(&source.path, text.as_bytes()) {
            Ok(()) => {
                added.comments += plan.added;
                added.extended += plan.extended;
                added.files += 1;
            }
            Err(e) => added
                .errors
                .push(format!("cannot write `{}`: {e}", source.display)),
        }
    }
    added
}
