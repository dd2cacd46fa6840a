//! Suppression comments applied to a crate's findings (`syntax::comments`
//! reads them): what they cover is dropped, then the directives that name no
//! lint or cover nothing are reported (`invalid_suppression`,
//! `unused_suppression`).

use crate::config::{Config, Level};
use crate::lints::apply::levels::apply_levels;
use crate::lints::{invalid_suppression, unused_suppression};
use crate::model::diagnostic::{Applicability, Diagnostic};
use crate::model::facts::{Directive, Directives, Named};
use crate::model::lint_id::LintId;
use crate::model::source::{FileId, SourceFile};

/// Where a directive's lint applies: findings of that lint in that file
/// (`None`) or on that line of it.
type Reach = (FileId, Option<usize>, LintId);

/// The reach of one lint of a directive; `None` for a line directive with
/// no code below it, which covers nothing.
fn reach(file: FileId, dir: &Directive, lint: LintId) -> Option<Reach> {
    let line = if dir.file_wide { None } else { Some(dir.line?) };
    Some((file, line, lint))
}

/// The directives of a crate's files, looked up by reach: a finding is
/// checked against the two reaches that can cover it, not against every
/// directive (a file of 10,000 directives made that the square).
struct Cover<'a> {
    sources: std::collections::HashMap<FileId, &'a SourceFile>,
    reaches: std::collections::HashSet<Reach>,
}

impl<'a> Cover<'a> {
    /// What the directives cover, each name standing for the lint `lint`
    /// gives it (`None`: for none).
    fn new(
        files: &[(&'a SourceFile, FileId, &'a Directives)],
        lint: impl Fn(&Named) -> Option<LintId>,
    ) -> Self {
        Cover {
            sources: files.iter().map(|(source, id, _)| (*id, *source)).collect(),
            reaches: files
                .iter()
                .flat_map(|(_, id, d)| d.directives.iter().map(move |dir| (*id, dir)))
                .flat_map(|(id, dir)| {
                    let lint = &lint;
                    (dir.lints.iter()).filter_map(move |named| reach(id, dir, lint(named)?))
                })
                .collect(),
        }
    }

    /// The reaches that cover `d` (none for a finding outside these files).
    fn covering(&self, d: &Diagnostic) -> impl Iterator<Item = Reach> + '_ {
        let (file, lint) = (d.span.file, d.lint);
        let line = self.sources.get(&file).map(|s| s.line(d.span.start));
        line.into_iter()
            .flat_map(|line| [None, Some(line)])
            .map(move |line| (file, line, lint))
            .filter(|reach| self.reaches.contains(reach))
    }
}

/// Whether a name of `dir` (the lint it names, `None` for an unknown name)
/// is to be reported unused: it ran and covered nothing.
fn is_unused(
    lint: Option<LintId>,
    file: FileId,
    dir: &Directive,
    used: &std::collections::HashSet<Reach>,
    config: &Config,
    ignored: &dyn Fn(FileId, LintId) -> bool,
) -> bool {
    match lint {
        // An unknown name is `invalid_suppression`'s.
        None => false,
        // A lint that did not run (allowed, or ignored in this file by
        // `[per-file-ignores]`) says nothing about the directive.
        Some(l) if config.level(l) == Level::Allow || ignored(file, l) => false,
        Some(l) if l == unused_suppression::LINT.id => false,
        Some(l) => !reach(file, dir, l).is_some_and(|r| used.contains(&r)),
    }
}

/// Apply `[per-file-ignores]` and the directives of a crate's files to its
/// findings: drop those they cover, then report directives that name no
/// lint (`invalid_suppression`) or cover nothing (`unused_suppression`), at
/// the configured levels.
pub fn apply(
    diagnostics: &mut Vec<Diagnostic>,
    files: &[(&SourceFile, FileId, &Directives)],
    config: &Config,
) {
    let cover = Cover::new(files, |named| named.lint);
    // A lint `[per-file-ignores]` names for a file is off there, as if allowed.
    let ignored = |file: FileId, lint: LintId| {
        (cover.sources.get(&file)).is_some_and(|source| config.ignores(&source.path, lint))
    };
    diagnostics.retain(|d| !ignored(d.span.file, d.lint));
    let mut used: std::collections::HashSet<Reach> = std::collections::HashSet::new();
    diagnostics.retain(|d| {
        let mut covered = false;
        for reach in cover.covering(d) {
            used.insert(reach);
            covered = true;
        }
        !covered
    });
    // A finding that a misspelled name would silence once its fix corrects
    // it is not fixed meanwhile: the user wrote the comment to keep the
    // code as it is (its fix is only shown, and the next pass finds the
    // finding silenced).
    let repairs = Cover::new(files, |named| match named.lint {
        Some(_) => None,
        None => invalid_suppression::repair(&named.text),
    });
    for d in diagnostics.iter_mut() {
        if repairs.covering(d).next().is_some()
            && let Some(fix) = &mut d.fix
        {
            fix.applicability = Applicability::DisplayOnly;
        }
    }

    let mut meta = Vec::new();
    for (source, file, directives) in files {
        for m in &directives.malformed {
            meta.push(invalid_suppression::malformed(m.span, &m.message));
        }
        for dir in &directives.directives {
            let unused: Vec<usize> = (0..dir.lints.len())
                .filter(|&i| is_unused(dir.lints[i].lint, *file, dir, &used, config, &ignored))
                .collect();
            let all_unused = unused.len() == dir.lints.len();
            meta.extend(
                unused
                    .iter()
                    .map(|&i| unused_suppression::diagnostic(source, dir, i, all_unused)),
            );
            meta.extend(
                (dir.lints.iter())
                    .filter(|named| named.lint.is_none())
                    .map(|named| invalid_suppression::unknown_lint(named.span, &named.text)),
            );
        }
    }
    // The meta findings obey levels and directives too (but cannot make a
    // directive used: `allow(unused_suppression)` on itself is not a loop).
    meta.retain(|d| cover.covering(d).next().is_none() && !ignored(d.span.file, d.lint));
    apply_levels(&mut meta, config);
    diagnostics.extend(meta);
}
