//! What the server knows of the workspace: its packages (each one *unit*
//! analysed together, as `check` analyses a package), the open documents,
//! and the findings last published for each file.
//!
//! Discovery is `check --workspace`'s ([`discover`]): `cargo metadata
//! --no-deps --offline` run by the trusted cargo, files under no package
//! walked as folders, links out of the workspace skipped. Nothing the
//! workspace chooses runs.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_types as lsp;

use crate::config::{ConfigError, Loader, Overrides};
use crate::lints::LINTS;
use crate::lints::apply::add_suppressions;
use crate::model::diagnostic::{Applicability, Diagnostic, Fix};
use crate::model::source::{SourceFile, SourceMap};
use crate::run::cache::FileCache;
use crate::run::{Input, Outcome, analyze_cached, discover};

use super::convert::{self, Lines, LinesCache};

/// One open document: its text as the editor holds it.
pub struct Document {
    pub text: String,
    pub version: i32,
}

/// A finding as published, with what its code actions and hover need.
pub struct Finding {
    pub diagnostic: lsp::Diagnostic,
    /// Byte range in the analysed text of its file.
    pub start: usize,
    pub end: usize,
    pub model: Diagnostic,
    /// Its fix as edits of the protocol, when it has one that may be applied.
    pub fix: Option<lsp::WorkspaceEdit>,
    /// The comment that silences it on its line ([`add_suppressions`]).
    pub suppress: Option<lsp::WorkspaceEdit>,
}

/// What was published for one file, and the text it was computed on.
#[derive(Default)]
pub struct FileFindings {
    pub text: Arc<str>,
    pub findings: Vec<Finding>,
    /// Why the file could not be analysed (a parse error), as diagnostics.
    pub errors: Vec<lsp::Diagnostic>,
}

impl FileFindings {
    pub fn diagnostics(&self) -> Vec<lsp::Diagnostic> {
        (self.errors.iter().cloned())
            .chain(self.findings.iter().map(|f| f.diagnostic.clone()))
            .collect()
    }
}

/// The files analysed together: one package (or the files under no package).
pub struct Unit {
    pub inputs: Vec<Input>,
    /// A file opened outside every workspace folder: dropped when closed.
    pub loose: bool,
}

#[derive(Default)]
pub struct Workspace {
    pub folders: Vec<PathBuf>,
    pub units: Vec<Unit>,
    /// The unit of each file, by its path as discovered and its real path.
    pub unit_of: HashMap<PathBuf, usize>,
    pub documents: HashMap<PathBuf, Document>,
    pub published: HashMap<PathBuf, FileFindings>,
    /// Configurations that could not be read, as diagnostics of their file.
    pub config_errors: HashMap<PathBuf, Vec<lsp::Diagnostic>>,
    /// Notes for the client's log (cargo failing, a panic caught).
    pub log: Vec<String>,
    /// What each file gave the per-file pass, as it was: a keystroke
    /// extracts the edited file again, not its package.
    pub cache: FileCache,
}

impl Workspace {
    /// Discover every folder's packages again (a configuration or manifest
    /// changed), keeping the open documents.
    pub fn discover(&mut self) {
        self.units.clear();
        self.unit_of.clear();
        self.config_errors.clear();
        let loader = Loader::new(Overrides::default()).expect("no --config to read");
        for folder in self.folders.clone() {
            let (inputs, log) = folder_inputs(&folder);
            self.log.extend(log);
            self.add_inputs(inputs, &loader, false);
        }
        let open: Vec<PathBuf> = self.documents.keys().cloned().collect();
        for path in open {
            self.ensure_unit(&path);
        }
        let known = &self.unit_of;
        self.cache.retain(|path| known.contains_key(path));
        // A model rests on the manifests (its crates, their dependencies):
        // the next run builds it again.
        self.cache.forget_models(|_| false);
    }

    /// Group `inputs` by crate into units, configured as `check` does.
    fn add_inputs(&mut self, inputs: Vec<Input>, loader: &Loader, loose: bool) {
        let inputs = match discover::configure(inputs, loader).map(|(inputs, _excluded)| inputs) {
            Ok(inputs) => inputs,
            Err(e) => {
                self.config_error(&e);
                return;
            }
        };
        let mut by_krate: Vec<(usize, Vec<Input>)> = Vec::new();
        for input in inputs {
            match by_krate.iter_mut().find(|(k, _)| *k == input.krate) {
                Some((_, list)) => list.push(input),
                None => by_krate.push((input.krate, vec![input])),
            }
        }
        for (_, inputs) in by_krate {
            let at = self.units.len();
            for input in &inputs {
                self.unit_of.insert(input.path.clone(), at);
                if let Ok(real) = input.path.canonicalize() {
                    self.unit_of.entry(real).or_insert(at);
                }
            }
            self.units.push(Unit { inputs, loose });
        }
    }

    fn config_error(&mut self, e: &ConfigError) {
        let text = e.text.clone();
        let lines = Lines::new(&text);
        let range = e
            .span
            .clone()
            .map_or_else(lsp::Range::default, |s| lines.range(s.start, s.end));
        let diagnostic = lsp::Diagnostic {
            range,
            severity: Some(lsp::DiagnosticSeverity::ERROR),
            source: Some(convert::SOURCE.to_string()),
            message: format!(
                "{} (backend-lint keeps the files it covers unchecked)",
                e.message
            ),
            ..Default::default()
        };
        self.log.push(e.render(false));
        self.config_errors
            .entry(e.path.clone())
            .or_default()
            .push(diagnostic);
    }

    /// The unit of `path`; for a file outside every folder, a unit made
    /// for it (its own package, as `check FILE` reads it). `None` for a
    /// file of a folder that no unit reads (excluded by the configuration,
    /// ignored, under `target/`, new since the last discovery) and a file
    /// that does not exist on disk.
    pub fn ensure_unit(&mut self, path: &Path) -> Option<usize> {
        if let Some(&at) = self.unit_of.get(path) {
            return Some(at);
        }
        if let Some(&at) = path.canonicalize().ok().and_then(|r| self.unit_of.get(&r)) {
            return Some(at);
        }
        if !path.is_file() || self.in_folder(path) {
            return None;
        }
        let base = path.parent().unwrap_or(Path::new("/")).to_path_buf();
        let (inputs, _) = discover::packages_of_files(&[path.to_path_buf()], &base);
        let loader = Loader::new(Overrides::default()).expect("no --config to read");
        self.add_inputs(inputs, &loader, true);
        self.unit_of.get(path).copied()
    }

    /// The units of the open documents.
    pub fn open_units(&self) -> Vec<usize> {
        let mut open: Vec<usize> = (self.documents.keys())
            .filter_map(|path| {
                (self.unit_of.get(path).copied())
                    .or_else(|| self.unit_of.get(&path.canonicalize().ok()?).copied())
            })
            .collect();
        open.sort_unstable();
        open.dedup();
        open
    }

    /// Whether `path` is inside a workspace folder.
    pub fn in_folder(&self, path: &Path) -> bool {
        self.folders.iter().any(|f| path.starts_with(f))
    }

    /// Retire the loose units with no open document left (their places
    /// stay, so that the numbers of the others hold); the files whose
    /// diagnostics are to be cleared.
    pub fn drop_loose_units(&mut self) -> Vec<PathBuf> {
        let mut cleared = Vec::new();
        for unit in &mut self.units {
            let open = unit
                .inputs
                .iter()
                .any(|i| self.documents.contains_key(&i.path));
            if unit.loose && !open {
                for input in std::mem::take(&mut unit.inputs) {
                    self.unit_of.remove(&input.path);
                    if self.published.remove(&input.path).is_some() {
                        cleared.push(input.path);
                    }
                }
            }
        }
        self.unit_of
            .retain(|_, at| !self.units[*at].inputs.is_empty());
        cleared
    }

    /// The unit's inputs, each open document's text in place of its file's.
    fn inputs_with_buffers(&self, unit: usize) -> Vec<Input> {
        (self.units[unit].inputs.iter())
            .map(|input| {
                let mut input = input.clone();
                if let Some(doc) = self.documents.get(&input.path) {
                    input.text = Some(Arc::from(doc.text.as_str()));
                }
                input
            })
            .collect()
    }

    /// Analyse a unit and record its findings; the files whose
    /// diagnostics changed are returned. A panic in the analysis is caught
    /// and logged, and what was published stays.
    pub fn analyse(&mut self, unit: usize) -> Vec<PathBuf> {
        let inputs = self.inputs_with_buffers(unit);
        let paths: Vec<PathBuf> = inputs.iter().map(|i| i.path.clone()).collect();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            #[cfg(feature = "testing")]
            if inputs.iter().any(|i| {
                (i.text.as_deref()).is_some_and(|t| t.contains("backend-lint-test: panic"))
            }) {
                panic!("a panic asked for by a test");
            }
            analyze_cached(inputs, LINTS, &|_| {}, Some(&self.cache))
        }));
        let outcome = match outcome {
            Ok(outcome) => outcome,
            Err(panic) => {
                let why = (panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                self.log.push(format!(
                    "error: the analysis of the package of `{}` panicked ({why}); \
                     its last diagnostics are kept",
                    paths
                        .first()
                        .map(|p| p.display().to_string())
                        .unwrap_or_default()
                ));
                return Vec::new();
            }
        };
        // The semantic models and module trees are kept for the packages
        // of open documents, which each keystroke analyses again; another
        // package is analysed again only when its files change on disk.
        let open = self.open_units();
        (self.cache).forget_models(|path| self.unit_of.get(path).is_some_and(|u| open.contains(u)));
        self.record(&paths, outcome)
    }

    /// Replace the findings of `paths` by those of `outcome`. When an open
    /// document cannot be analysed (a half-typed line), only its errors are
    /// shown: the other files keep their last good diagnostics, which a
    /// package without that file would change.
    fn record(&mut self, paths: &[PathBuf], outcome: Outcome) -> Vec<PathBuf> {
        let sources = &outcome.sources;
        let mut new: HashMap<PathBuf, FileFindings> = HashMap::new();
        let mut lines = LinesCache::default();
        let mut broken_document = false;
        let errors = (outcome.errors.iter()).map(|e| (e, lsp::DiagnosticSeverity::ERROR));
        let skipped = (outcome.skipped.iter()).map(|e| (e, lsp::DiagnosticSeverity::WARNING));
        for (e, severity) in errors.chain(skipped) {
            let file = sources.get(e.file);
            let open = self.documents.contains_key(&file.path);
            if e.span.is_none() && !open {
                // Not opened at all (outside the checkout): nothing to show.
                continue;
            }
            broken_document |= open;
            let range = e.span.map_or_else(lsp::Range::default, |s| {
                Lines::new(&file.text).range(s.start, s.end)
            });
            let entry = new.entry(file.path.clone()).or_default();
            entry.text = file.text.clone();
            entry.errors.push(lsp::Diagnostic {
                range,
                severity: Some(severity),
                source: Some(convert::SOURCE.to_string()),
                message: e.message.clone(),
                ..Default::default()
            });
        }
        for d in &outcome.diagnostics {
            let file = sources.get(d.span.file);
            let entry = new.entry(file.path.clone()).or_default();
            entry.text = file.text.clone();
            entry.findings.push(finding(d, sources, &mut lines));
        }
        let mut changed = Vec::new();
        for path in paths {
            let now = new.remove(path);
            if broken_document && now.as_ref().is_none_or(|f| f.errors.is_empty()) {
                continue;
            }
            let before = self.published.get(path).map(FileFindings::diagnostics);
            let after = now.as_ref().map(FileFindings::diagnostics);
            if before.unwrap_or_default() != after.unwrap_or_default() {
                changed.push(path.clone());
            }
            match now {
                Some(now) => self.published.insert(path.clone(), now),
                None => self.published.remove(path),
            };
        }
        changed
    }

    /// The version of an open document, for its diagnostics.
    pub fn version(&self, path: &Path) -> Option<i32> {
        self.documents.get(path).map(|d| d.version)
    }
}

/// The files of a workspace folder, as `check --workspace` run there finds
/// them; what went wrong, for the log.
fn folder_inputs(folder: &Path) -> (Vec<Input>, Vec<String>) {
    let tree = discover::analysed_tree(folder, &[folder.to_path_buf()]);
    let selection = discover::Selection {
        workspace: true,
        ..Default::default()
    };
    let mut log = Vec::new();
    let (inputs, errors) = match discover::cargo_packages(folder, &selection, &tree) {
        Ok(packages) => discover::package_inputs(&packages.chosen, folder),
        Err(e) => {
            if discover::nearest_package(folder).is_some() {
                log.push(format!("error: {e}"));
            }
            discover::collect(&[folder.to_path_buf()], folder)
        }
    };
    log.extend(errors.into_iter().map(|e| format!("error: {}", e.message)));
    (inputs, log)
}

/// A finding with its fix and its suppression as workspace edits.
fn finding(d: &Diagnostic, sources: &SourceMap, lines: &mut LinesCache) -> Finding {
    let fix = (d.fix.as_ref())
        .filter(|f| f.applicability != Applicability::DisplayOnly)
        .map(|f| workspace_edit(f, sources, lines));
    let source = sources.get(d.span.file);
    let suppress = add_suppressions::covers(d.lint)
        .then(|| suppression(source, d))
        .flatten();
    Finding {
        diagnostic: convert::diagnostic(d, sources, lines),
        start: d.span.start,
        end: d.span.end,
        model: d.clone(),
        fix,
        suppress,
    }
}

/// A fix's edits, in the files they change.
pub fn workspace_edit(
    fix: &Fix,
    sources: &SourceMap,
    lines: &mut LinesCache,
) -> lsp::WorkspaceEdit {
    let mut changes: HashMap<lsp::Uri, Vec<lsp::TextEdit>> = HashMap::new();
    for edit in &fix.edits {
        let (uri, range) = convert::range_in(sources, lines, edit.span);
        changes.entry(uri).or_default().push(lsp::TextEdit {
            range,
            new_text: edit.replacement.clone(),
        });
    }
    lsp::WorkspaceEdit {
        changes: Some(changes),
        ..Default::default()
    }
}

/// The comment `--add-suppressions` writes for this one finding, with its
/// `reason: TODO` for the user to replace.
fn suppression(source: &SourceFile, d: &Diagnostic) -> Option<lsp::WorkspaceEdit> {
    let plan = add_suppressions::plan(source, d.span.file, [d]);
    let edit = plan.edits.first()?;
    let lines = Lines::new(&source.text);
    let edit = lsp::TextEdit {
        range: lines.range(edit.span.start, edit.span.end),
        new_text: edit.replacement.clone(),
    };
    Some(lsp::WorkspaceEdit {
        changes: Some(HashMap::from([(convert::uri_of(&source.path), vec![edit])])),
        ..Default::default()
    })
}
