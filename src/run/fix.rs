//! `--fix` and `--diff`: the fixes of the findings applied, as ruff and
//! `cargo clippy --fix` do. A pass applies the allowed fixes whose edits
//! overlap none applied before it ([`non_overlapping`]), then the files are
//! analysed again on their new text (still in memory) and the fixes found
//! then are applied, up to [`MAX_PASSES`] passes. A file whose new text no
//! longer parses is put back as it was before the pass and left alone.
//! Nothing is written before the last pass: then each changed file is
//! replaced whole ([`atomic::replace`]), unless it changed on disk since it
//! was read.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::lints::Lint;
use crate::model::diagnostic::{Applicability, Edit, Fix};
use crate::model::fix::{apply, non_overlapping};
use crate::run::{Input, Outcome, analyze_with_progress, atomic};

/// Passes of fixing before the run stops and reports what is left: fixes
/// that keep making fixes (they should not) cannot loop forever.
pub const MAX_PASSES: usize = 10;

/// One file a run changed.
#[derive(Debug, Clone)]
pub struct Change {
    pub path: PathBuf,
    pub display: String,
    /// As read from disk.
    pub old: Arc<str>,
    pub new: Arc<str>,
}

/// A file the run did not change, and why (rustc style, lowercase).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotFixed {
    pub display: String,
    pub why: String,
}

/// What fixing did.
#[derive(Debug, Default)]
pub struct Fixed {
    /// The analysis of the fixed texts: the findings left.
    pub outcome: Outcome,
    /// The files changed, in the order of the report.
    pub changes: Vec<Change>,
    /// How many fixes were applied.
    pub applied: usize,
    /// Files whose fixed text no longer parsed, left as they were, and
    /// links, which are never fixed (their findings are left).
    pub rolled_back: Vec<NotFixed>,
}

/// Which fixes a run applies: the safe ones, and the unsafe ones too with
/// `--unsafe-fixes`; a display-only fix never.
pub fn allowed(fix: &Fix, unsafe_fixes: bool) -> bool {
    match fix.applicability {
        Applicability::Safe => true,
        Applicability::Unsafe => unsafe_fixes,
        Applicability::DisplayOnly => false,
    }
}

/// A file's texts while fixing: as read, before the last pass, now.
struct Texts {
    old: Arc<str>,
    before_pass: Arc<str>,
    new: Arc<str>,
    display: String,
    /// Fixes applied to it in the last pass (taken back on a roll back).
    applied_last: usize,
}

/// What a run fixes.
pub struct Options<'a> {
    /// Apply the unsafe fixes too (`--unsafe-fixes`).
    pub unsafe_fixes: bool,
    /// Edit only the files this accepts (the files given, when the whole
    /// package of each is analysed).
    pub editable: &'a (dyn Fn(&Path) -> bool + Sync),
}

/// Analyse `inputs` and apply the fixes allowed until none is left (or
/// [`MAX_PASSES`]), in memory: [`write`] writes the changes.
pub fn fix(
    inputs: Vec<Input>,
    lints: &[&Lint],
    options: &Options<'_>,
    progress: &(dyn Fn(usize) + Sync),
) -> Fixed {
    let mut texts: HashMap<PathBuf, Texts> = HashMap::new();
    // Rolled back: never edited again in this run.
    let mut frozen: HashSet<PathBuf> = HashSet::new();
    let mut links: Vec<PathBuf> = Vec::new();
    let mut fixed = Fixed::default();
    // Links are never written (`write`): their fixes are not applied, so
    // that what is reported left is what is on disk.
    for input in &inputs {
        if is_link(&input.path) && frozen.insert(input.path.clone()) {
            links.push(input.path.clone());
        }
    }
    let mut passes = 0;
    loop {
        let current = (inputs.iter().cloned())
            .map(|i| Input {
                text: texts.get(&i.path).map(|t| t.new.clone()),
                ..i
            })
            .collect();
        let outcome = analyze_with_progress(current, lints, progress);
        if roll_back_unparsable(&outcome, &mut texts, &mut frozen, &mut fixed) {
            continue;
        }
        let applied = &mut fixed.applied;
        if passes == MAX_PASSES || !apply_pass(&outcome, &mut texts, &frozen, options, applied) {
            fixed.outcome = outcome;
            break;
        }
        passes += 1;
    }
    fixed.applied += texts.values().map(|t| t.applied_last).sum::<usize>();
    // A link whose findings had a fix to apply is reported, with why.
    for link in links {
        let sources = &fixed.outcome.sources;
        let source = (fixed.outcome.diagnostics.iter())
            .filter(|d| {
                d.fix
                    .as_ref()
                    .is_some_and(|f| allowed(f, options.unsafe_fixes))
            })
            .map(|d| sources.get(d.span.file))
            .find(|s| s.path == link);
        if let Some(source) = source {
            fixed.rolled_back.push(NotFixed {
                display: source.display.clone(),
                why: LINK.into(),
            });
        }
    }
    let mut changes: Vec<Change> = (texts.into_iter())
        .filter(|(_, t)| t.new != t.old)
        .map(|(path, t)| Change {
            path,
            display: t.display,
            old: t.old,
            new: t.new,
        })
        .collect();
    changes.sort_by(|a, b| a.display.cmp(&b.display));
    fixed.changes = changes;
    fixed
}

/// Put back the files the last pass left unparsable (an error in the
/// analysis of a changed file): `true` when there were any, and the files
/// must be analysed again.
fn roll_back_unparsable(
    outcome: &Outcome,
    texts: &mut HashMap<PathBuf, Texts>,
    frozen: &mut HashSet<PathBuf>,
    fixed: &mut Fixed,
) -> bool {
    let mut any = false;
    for error in &outcome.errors {
        let path = &outcome.sources.get(error.file).path;
        let Some(t) = texts.get_mut(path) else {
            continue;
        };
        if t.new == t.before_pass || !frozen.insert(path.clone()) {
            continue;
        }
        t.new = t.before_pass.clone();
        t.applied_last = 0;
        fixed.rolled_back.push(NotFixed {
            display: t.display.clone(),
            why: format!(
                "its fixed text could not be analysed ({}); the file was left as it was",
                error.message
            ),
        });
        any = true;
    }
    any
}

/// Apply one pass of fixes to `texts`: `false` when there was none to
/// apply. The fixes of the pass before, which the analysis found
/// parsable, are added to `applied`.
fn apply_pass(
    outcome: &Outcome,
    texts: &mut HashMap<PathBuf, Texts>,
    frozen: &HashSet<PathBuf>,
    options: &Options<'_>,
    applied: &mut usize,
) -> bool {
    let path_of = |edit: &Edit| &outcome.sources.get(edit.span.file).path;
    let editable =
        |edit: &Edit| !frozen.contains(path_of(edit)) && (options.editable)(path_of(edit));
    let candidates = (outcome.diagnostics.iter())
        .filter_map(|d| d.fix.as_ref())
        .filter(|f| allowed(f, options.unsafe_fixes))
        .filter(|f| f.edits.iter().all(editable));
    let taken = non_overlapping(candidates);
    if taken.is_empty() {
        return false;
    }
    for t in texts.values_mut() {
        *applied += std::mem::take(&mut t.applied_last);
        t.before_pass = t.new.clone();
    }
    let mut by_file: HashMap<u32, (Vec<&Edit>, usize)> = HashMap::new();
    for fix in &taken {
        for (i, edit) in fix.edits.iter().enumerate() {
            let entry = by_file.entry(edit.span.file).or_default();
            entry.0.push(edit);
            // A fix counts once, in the file of its first edit.
            entry.1 += usize::from(i == 0);
        }
    }
    let mut changed = false;
    for (file, (edits, count)) in by_file {
        let source = outcome.sources.get(file);
        let t = texts.entry(source.path.clone()).or_insert_with(|| Texts {
            old: source.text.clone(),
            before_pass: source.text.clone(),
            new: source.text.clone(),
            display: source.display.clone(),
            applied_last: 0,
        });
        // Edits made for another text (a bug) are not applied.
        let Ok(new) = apply(&t.new, &edits) else {
            continue;
        };
        t.new = Arc::from(new);
        t.applied_last = count;
        changed = true;
    }
    changed
}

/// Write the changes, each file replaced whole; the files not written and
/// why: changed on disk since they were read, a link, or an I/O error.
pub fn write(changes: &[Change]) -> Vec<NotFixed> {
    changes.iter().filter_map(|c| write_one(c).err()).collect()
}

fn write_one(change: &Change) -> Result<(), NotFixed> {
    let not = |why: String| NotFixed {
        display: change.display.clone(),
        why,
    };
    // Replacing a link would turn it into a copy of its target.
    if is_link(&change.path) {
        return Err(not(LINK.into()));
    }
    const CHANGED: &str = "it changed on disk since it was read; it was not written";
    // The file as last read: its text is the one fixed, and it is the same
    // file (identity, modification time, length) right before the rename.
    let seen = atomic::Seen::of(&change.path);
    match (std::fs::read(&change.path), seen) {
        (Ok(now), Ok(seen)) if now == change.old.as_bytes() => {
            match atomic::replace_unless_changed(&change.path, change.new.as_bytes(), Some(&seen)) {
                Ok(()) => Ok(()),
                Err(e) if atomic::is_changed(&e) => Err(not(CHANGED.into())),
                Err(e) => Err(not(format!("it could not be written ({e})"))),
            }
        }
        (Ok(_), Ok(_)) => Err(not(CHANGED.into())),
        (Err(e), _) | (_, Err(e)) => Err(not(format!(
            "it could not be read again ({e}); it was not written"
        ))),
    }
}

/// Why a link is never fixed.
const LINK: &str =
    "it is a link, which a fix would replace by a copy of its target; it was not written";

fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink())
}

/// How many findings have a fix a run applies (`unsafe_fixes`: counting
/// the unsafe ones too).
pub fn fixable(outcome: &Outcome, unsafe_fixes: bool) -> usize {
    (outcome.diagnostics.iter())
        .filter(|d| d.fix.as_ref().is_some_and(|f| allowed(f, unsafe_fixes)))
        .count()
}
