//! Runs the two passes over a set of files.

pub mod atomic;
pub mod cache;
pub mod dep_sources;
mod deps;
pub mod discover;
pub mod fix;
pub mod init;
mod learn;
mod manifest;
pub mod metadata_cache;
#[cfg(feature = "testing")]
pub mod model;
#[cfg(not(feature = "testing"))]
mod model;
mod read;
pub mod summary_cache;
pub mod suppress;
mod values;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use learn::{forget_unlearned_calls, learn, names_word, reparse_for_learned_names};
use read::{analyze_text, open, parsed, read_and, read_opened, unreadable, utf8};
#[cfg(feature = "testing")]
pub use read::{parse_and_extract, parse_and_extract_as_written};

use crate::analysis::{CrateFacts, infer};
use crate::config::{Config, Level};
use crate::lints::apply::{levels::apply_levels, suppression};
use crate::lints::{Check, Lint};
use crate::model::diagnostic::{Diagnostic, FileError};
use crate::model::facts::FileFacts;
use crate::model::facts::Inferred;
use crate::model::source::{FileId, SourceFile, SourceMap};
use crate::prefilter;
use crate::syntax::comments;

/// Larger files are reported as not analysed rather than parsed: no
/// hand-written source is this big, and generated code has no registrations.
pub const MAX_FILE_BYTES: u64 = 32 * 1024 * 1024;

/// Stack of the parsing threads. syn and our walk recurse once per nesting
/// level; a 2 MiB rayon stack overflows at ~700 nested parentheses and aborts
/// the whole process. 256 MiB of (lazily committed) stack survives ~30k levels.
const STACK_BYTES: usize = 256 * 1024 * 1024;

/// One file to analyse.
#[derive(Debug, Clone)]
pub struct Input {
    pub path: PathBuf,
    /// The path as shown in reports.
    pub display: String,
    /// Files with the same crate number form one crate for crate-wide lints.
    pub krate: usize,
    /// The configuration that applies (the crate's: that of its first file).
    pub config: Arc<Config>,
    /// A target source of its package (lib, bin, test, example, bench, build
    /// script), as cargo metadata says; cargo's layout rules are applied too.
    pub target: bool,
    /// Read only the structure of a file in which nothing can be found
    /// ([`crate::prefilter`]); `false` parses every file (`--no-prefilter`).
    pub prefilter: bool,
    /// Never opened, and why (its real path is outside the checkout, it is
    /// a FIFO): listed in [`Outcome::skipped`] with this reason.
    pub skip: Option<String>,
    /// The folder of its package's `Cargo.toml`, as discovery found it;
    /// `None` outside any package. The analysis reads cargo's layout from
    /// it, never from the filesystem.
    pub package_root: Option<Arc<Path>>,
    /// The text to analyse in place of the file's: a fix being tried
    /// ([`fix`]), not written yet.
    pub text: Option<Arc<str>>,
    /// A file of a dependency the workspace calls (issue 29,
    /// [`dep_sources`]): read to learn from, never reported on. With a
    /// cached summary, the input stands for the whole package and is never
    /// opened.
    pub dependency: Option<Arc<dep_sources::Dependency>>,
}

impl Input {
    /// A file with the built-in configuration.
    pub fn new(path: PathBuf, display: String, krate: usize) -> Input {
        Input {
            path,
            display,
            krate,
            config: builtin_config(),
            target: false,
            prefilter: true,
            skip: None,
            package_root: None,
            text: None,
            dependency: None,
        }
    }
}

/// The built-in configuration, made once.
pub fn builtin_config() -> Arc<Config> {
    static BUILTIN: std::sync::OnceLock<Arc<Config>> = std::sync::OnceLock::new();
    BUILTIN.get_or_init(|| Arc::new(Config::default())).clone()
}

/// Everything a run found.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Every file of the run, with the source of those the diagnostics,
    /// errors and skipped files point into.
    pub sources: SourceMap,
    /// Sorted by file, position and lint.
    pub diagnostics: Vec<Diagnostic>,
    pub errors: Vec<FileError>,
    /// Files not analysed that fail nothing, each with why in its message:
    /// files never opened ([`Input::skip`]), and files that could not be
    /// analysed but that no target of their package compiles (not a target,
    /// and no `mod` of the package leads to them: dead code). In file order.
    pub skipped: Vec<FileError>,
    /// What the analysis learned from the code rather than from the
    /// configuration (issue 19), each once, by kind and name, with the
    /// `file:line` that taught it: `backend-lint config` shows it. Only in a
    /// run without lints (a run with lints uses it without listing it).
    pub inferred: Vec<Taught>,
    /// Of the references in the analysed packages' code, how many the
    /// semantic model could not tie to an item, by why (`backend-lint
    /// config`, issue 28): what learning by item could not see.
    pub unresolved: Unresolved,
    /// What each dependency read in this run teaches, for the cache
    /// (issue 29): those with a key ([`dep_sources::Dependency::key`]).
    pub dependency_summaries: Vec<(Arc<dep_sources::Dependency>, summary_cache::Summary)>,
    /// The APIs the dependencies taught, read or cached, by item path.
    pub dependency_apis: Vec<summary_cache::Api>,
}

/// Of the references in the packages' code ([`Outcome::unresolved`]): how
/// many there are, and how many the model tied to no item, by why.
#[derive(Debug, Clone, Default)]
pub struct Unresolved {
    pub references: usize,
    pub by_why: Vec<(crate::semantic::Why, usize)>,
}

/// What the code taught ([`Outcome::inferred`]): the fact, the `file:line`
/// that taught it, and the item it was learned on, by path
/// (`candle_core::device::DeviceKind::as_str`), when the model ties the
/// place to one.
#[derive(Debug, Clone)]
pub struct Taught {
    pub inferred: Inferred,
    pub place: String,
    pub item_path: Option<String>,
}

/// Analyse `inputs` with `lints` (normally [`LINTS`](crate::lints::LINTS)).
/// The tests' and the bench's entry point (feature `testing`); the CLI shows
/// progress.
#[cfg(feature = "testing")]
pub fn analyze(inputs: Vec<Input>, lints: &[&Lint]) -> Outcome {
    analyze_with_progress(inputs, lints, &|_| {})
}

/// [`analyze`], calling `progress(n)` as each file's per-file pass ends
/// (from the worker threads), with `n` the number of files, for a progress bar.
pub fn analyze_with_progress(
    inputs: Vec<Input>,
    lints: &[&Lint],
    progress: &(dyn Fn(usize) + Sync),
) -> Outcome {
    analyze_cached(inputs, lints, progress, None)
}

/// [`analyze_with_progress`], taking what the per-file pass found in a file
/// from `cache` when the file is as it was, and keeping what it finds
/// there: the language server's runs of one package, keystroke after
/// keystroke ([`cache::FileCache`]).
pub fn analyze_cached(
    inputs: Vec<Input>,
    lints: &[&Lint],
    progress: &(dyn Fn(usize) + Sync),
    cache: Option<&cache::FileCache>,
) -> Outcome {
    if let Some(cache) = cache {
        cache.begin_run();
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .stack_size(STACK_BYTES)
        .thread_name(|i| format!("backend-lint-{i}"))
        .build()
        .ok();
    let mut inputs = inputs;
    // In the order of their displays, each with where it was named: the
    // places sorted, and the inputs put in their order in place (a run of
    // many files does not hold them twice). `then_with`: comparing paths
    // (component by component) only on a tie of the displays; `then`
    // compared them every time, which took longer than lexing a thousand
    // files.
    let mut named: Vec<usize> = (0..inputs.len()).collect();
    named.sort_by(|&a, &b| {
        let (a, b) = (&inputs[a], &inputs[b]);
        (a.display.cmp(&b.display)).then_with(|| a.path.cmp(&b.path))
    });
    permute(&mut inputs, &named);
    // The texts that stand for files in the language server's runs (its
    // open buffers): its models read them.
    let given: model::Given = Arc::new(match cache {
        Some(_) => (inputs.iter())
            .filter_map(|i| Some((i.path.clone(), i.text.clone()?)))
            .collect(),
        None => HashMap::new(),
    });
    // Without lints (`backend-lint config`), what was inferred is listed
    // with its place: the displays of files whose text is not held.
    let inferring = lints.is_empty();
    let displays: Vec<String> = match inferring {
        true => inputs.iter().map(|i| i.display.clone()).collect(),
        false => Vec::new(),
    };
    // And what the model resolves is counted in every file of each package
    // listed (the workspace's, not a dependency's), not only in those the
    // prefilter kept.
    let mut package_files: HashMap<Option<Arc<Path>>, Vec<PathBuf>> = HashMap::new();
    for input in inputs
        .iter()
        .filter(|i| inferring && i.dependency.is_none())
    {
        (package_files.entry(input.package_root.clone()).or_default()).push(input.path.clone());
    }
    let (inputs, per_file, learned, shared, dependencies) =
        per_file_pass(inputs, named, pool.as_ref(), progress, cache);

    // What is kept of each file: its source if a report may point into it,
    // its facts if the crate pass reads them; of most files, nothing.
    let mut outcome = Outcome::default();
    let mut files: Vec<Analysed> = Vec::new();
    let mut failed: Vec<Failed> = Vec::new();
    // Each crate's configuration and package folder: its first file's.
    let mut crate_of: HashMap<usize, CrateOf> = HashMap::new();
    let mut per_file = per_file.into_iter().peekable();
    // Where each file of the workspace is, by its id: the model may resolve
    // a call to another package's item in a file the crate pass does not
    // read (a value set another member defines: `Shared`).
    let mut paths: Vec<(PathBuf, FileId)> = Vec::new();
    for (i, input) in inputs.into_iter().enumerate() {
        // A dependency's file is learned from, never reported on.
        if input.dependency.is_some() {
            per_file.next_if(|(at, _)| *at == i);
            outcome.sources.add_unheld();
            continue;
        }
        paths.push((input.path.clone(), file_id(i)));
        let Input {
            path,
            display,
            krate,
            config,
            target,
            skip,
            package_root,
            ..
        } = input;
        crate_of.entry(krate).or_insert(CrateOf {
            config,
            package_root,
        });
        let Some((_, FileOutcome { result, text })) = per_file.next_if(|(at, _)| *at == i) else {
            outcome.sources.add_unheld();
            continue;
        };
        let id = match text {
            Some(text) => outcome
                .sources
                .add(SourceFile::new(path.clone(), display, text)),
            None => outcome.sources.add_unheld(),
        };
        // The facts' ids are the inputs' places (`file_id`), as `paths` says.
        debug_assert_eq!(id, file_id(i));
        match result {
            Ok(facts) => files.push(Analysed {
                id,
                krate,
                path,
                facts,
            }),
            Err(e) if skip.is_some() => outcome.skipped.push(e),
            Err(error) => failed.push(Failed {
                error,
                krate,
                target,
            }),
        }
    }

    // Each crate's files together, in file order (a stable sort).
    files.sort_by_key(|f| f.krate);
    let crates: Vec<&[Analysed]> = files.chunk_by(|a, b| a.krate == b.krate).collect();
    skip_uncompiled(&mut outcome, failed, &crates, &crate_of);

    let sources = &outcome.sources;
    let crate_of = &crate_of;
    let learned = &learned;
    let shared = &shared;
    // Each crate's semantic model, built when a question needs it; the
    // run's file at each path the models name. The language server's runs
    // (`cache`) keep it from one run to the next, with the open buffers'
    // texts.
    let models: HashMap<usize, Arc<crate::semantic::Lazy>> = (crates.iter())
        .map(|files| {
            let root = crate_of[&files[0].krate].package_root.clone();
            let paths = files.iter().map(|f| f.path.clone()).collect();
            let lazy = match cache {
                Some(cache) => cache.model(root, paths, given.clone()),
                None => Arc::new(model::lazy(root, paths)),
            };
            (files[0].krate, lazy)
        })
        .collect();
    let ids: std::sync::OnceLock<HashMap<&Path, FileId>> = std::sync::OnceLock::new();
    let real_ids: std::sync::OnceLock<HashMap<PathBuf, FileId>> = std::sync::OnceLock::new();
    let file_id = |p: &Path| {
        let ids = ids.get_or_init(|| paths.iter().map(|(p, id)| (p.as_path(), *id)).collect());
        // Another package's file, as cargo names it: by its real path.
        ids.get(p).copied().or_else(|| {
            let real = real_ids.get_or_init(|| {
                (paths.iter())
                    .filter_map(|(p, id)| Some((std::fs::canonicalize(p).ok()?, *id)))
                    .collect()
            });
            real.get(&std::fs::canonicalize(p).ok()?).copied()
        })
    };
    let (models, file_id) = (&models, &file_id);
    // The crate pass too runs on the big stacks: name resolution and the
    // lints recurse over what the files declare.
    let per_crate: Vec<(Vec<Diagnostic>, Vec<Inferred>)> = on_big_stack(pool.as_ref(), || {
        crates
            .par_iter()
            .map(|files| {
                // Every finding points into a file with a fact it can be
                // reported at (whose source is held): a crate without one
                // has nothing to check.
                let shown = |f: &&Analysed| f.facts.may_be_reported();
                if !inferring && !files.iter().any(|f| f.facts.may_start_finding()) {
                    return (Vec::new(), Vec::new());
                }
                let CrateOf {
                    config,
                    package_root,
                } = &crate_of[&files[0].krate];
                let directives: Vec<_> = files
                    .iter()
                    .filter(shown)
                    .map(|f| (sources.get(f.id), f.id, &f.facts.directives))
                    .collect();
                // The language server's runs keep the module tree while
                // the crate's modules, `use`s and constants are the same.
                let kept = cache.and_then(|c| {
                    let files: Vec<_> =
                        files.iter().map(|f| (f.path.as_path(), &f.facts)).collect();
                    c.module_tree(&files)
                });
                let crate_facts = CrateFacts::with_tree(
                    files
                        .iter()
                        .map(|f| (f.id, f.path.as_path(), &*f.facts))
                        .collect(),
                    &config.vocab,
                    package_root.as_deref(),
                    kept,
                )
                .with_learned(learned.get(&files[0].krate).map(|l| &**l))
                .with_shared(shared.get(&files[0].krate).map(|s| &**s))
                .with_model(
                    models
                        .get(&files[0].krate)
                        .map(|model| crate::analysis::ModelCx { model, file_id }),
                );
                let mut out = Vec::new();
                for lint in lints {
                    if config.level(lint.id) == Level::Allow {
                        continue;
                    }
                    if let Check::Crate(check) = lint.check {
                        check(&crate_facts, &mut out);
                    }
                }
                apply_levels(&mut out, config);
                suppression::apply(&mut out, &directives, config);
                let inferred = match inferring {
                    true => crate_facts.inferred(),
                    false => Vec::new(),
                };
                if let Some(cache) = cache {
                    let kept = (files.iter())
                        .map(|f| (f.path.clone(), f.facts.clone()))
                        .collect();
                    cache.keep_module_tree(kept, crate_facts.into_tree());
                }
                (out, inferred)
            })
            .collect()
    });
    let mut inferred: Vec<Inferred> = Vec::new();
    for (diagnostics, more) in per_crate {
        outcome.diagnostics.extend(diagnostics);
        inferred.extend(more);
    }
    if inferring {
        // Every name once, by kind and name: a function a package exports
        // is in the learning of every package that uses it.
        // What a dependency taught is listed apart, by item path.
        let own = |i: &&Inferred| dependencies.own.get(i.span.file as usize) == Some(&true);
        inferred.extend(
            learned
                .values()
                .flat_map(|l| l.inferred.iter().filter(own).cloned()),
        );
        // Each by the item it was learned on: the file's crate's model
        // ties the name's place to it.
        let of_file: HashMap<FileId, &Analysed> = files.iter().map(|f| (f.id, f)).collect();
        let item_path = |i: &Inferred| {
            let f = of_file.get(&i.span.file)?;
            let model = models.get(&f.krate)?.get()?;
            let loc = crate::semantic::ItemLoc {
                file: f.path.clone(),
                name: i.span.start..i.span.end,
            };
            let info = model.item_info(&loc)?;
            // A standalone package's model is one crate, named `crate`:
            // its name is the manifest's.
            let krate = match info.krate.as_str() {
                "crate" => (crate_of.get(&f.krate))
                    .and_then(|c| manifest::read(c.package_root.as_deref()?)?.name)
                    .unwrap_or(info.krate),
                _ => info.krate,
            };
            Some(format!(
                "{krate}{}",
                info.path.strip_prefix("crate").unwrap_or(&info.path)
            ))
        };
        let mut taught: Vec<Taught> = (inferred.into_iter())
            .map(|i| Taught {
                place: format!("{}:{}", displays[i.span.file as usize], i.line),
                item_path: item_path(&i),
                inferred: i,
            })
            .collect();
        let key = |t: &Taught| (t.inferred.kind, t.item_path.clone(), t.place.clone());
        taught.sort_by_key(key);
        taught.dedup_by(|a, b| key(a) == key(b));
        outcome.inferred = taught;
        outcome.unresolved = unresolved(package_files);
    }
    drop(crates);
    // Facts of thousands of files are freed on the pool, not one by one here.
    on_big_stack(pool.as_ref(), || files.into_par_iter().for_each(drop));
    let sources = &outcome.sources;
    outcome.diagnostics.sort_by(|a, b| {
        let key = |d: &Diagnostic| {
            (
                sources.get(d.span.file).display.as_str(),
                d.span.start,
                d.span.end,
                d.lint,
            )
        };
        key(a).cmp(&key(b))
    });
    outcome.diagnostics.dedup();
    outcome.dependency_summaries = dependencies.summaries;
    outcome.dependency_apis = dependencies.apis;
    outcome
}

/// What a crate is analysed with: the configuration and package folder of
/// its first file.
struct CrateOf {
    config: Arc<Config>,
    package_root: Option<Arc<Path>>,
}

/// What the crate pass reads of a file: where it is and what it declares.
struct Analysed {
    id: FileId,
    krate: usize,
    path: PathBuf,
    facts: Arc<FileFacts>,
}

/// A file that could not be analysed, and what decides whether that fails
/// the run ([`skip_uncompiled`]).
struct Failed {
    error: FileError,
    krate: usize,
    target: bool,
}

/// A file's facts or why it was not analysed, and its text if a report may
/// point into it: its error (the text empty when it could not be read), or
/// a fact a finding can point at. Most files of a crate have none, and
/// holding every text made memory grow with the size of the run. (The
/// facts shared: a run takes those of `run::cache` without copying them.)
#[derive(Clone)]
struct FileOutcome {
    result: Result<Arc<FileFacts>, FileError>,
    text: Option<Arc<str>>,
}

/// What the per-file pass hands on: the inputs kept, the outcome of those
/// a report or the crate pass needs (by their place), and what each crate's
/// code taught (by crate number).
type PerFile = (
    Vec<Input>,
    Vec<(usize, FileOutcome)>,
    HashMap<usize, Arc<infer::Learned>>,
    HashMap<usize, Arc<crate::analysis::shared::Shared>>,
    Dependencies,
);

/// What the dependencies taught (issue 29): the summaries of those read
/// (to cache), the APIs of all, and which files of the run are the
/// workspace's own (by file id), whose learning `config` lists as such.
#[derive(Default)]
struct Dependencies {
    summaries: Vec<(Arc<dep_sources::Dependency>, summary_cache::Summary)>,
    apis: Vec<summary_cache::Api>,
    own: Vec<bool>,
}

/// What the first stage of the per-file pass learns of a file.
#[derive(Clone)]
struct Survey {
    identity: FileIdentity,
    /// In bytes, 0 when unknown.
    size: u64,
    verdict: Verdict,
    /// The names its text calls, when it was read ([`prefilter::Called`]).
    called: Option<prefilter::Called>,
}

/// What the rest of the per-file pass does with a file.
#[derive(Clone)]
enum Verdict {
    /// It tokenizes and cannot yield a finding: read for its structure
    /// only if its crate needs that.
    Lexed,
    /// Read again and parsed in full.
    Parse,
    /// Read again for its structure and its suppression comments (a file
    /// that cannot yield a finding but has directives to report at).
    Analyze,
    /// Not read, and why (also a file never opened: [`Input::skip`]).
    Unreadable(String),
}

/// The per-file pass: the inputs left once a file named twice (`check .
/// src/lib.rs`, `./a.rs` and `a.rs`, a link) is kept only where it was
/// named first (`named`: the place of each input in the caller's list),
/// and the outcome of those that a report or the crate pass needs, by their
/// place among them.
///
/// A file that cannot yield a finding gives the crate pass only structure
/// (constants, `use`s, `mod`s), which matters only to a crate the crate pass
/// runs on: one with a file a finding can point at, or with a file that
/// could not be analysed (whether a `mod` leads to it decides if it fails
/// the run). So the pass goes in three stages, each on the thread pool:
/// 1. every file is opened once, which says what file it is and its size
///    (no `stat` by path first); one the prefilter may skip is read and
///    lexed ([`prefilter::survey`]), so a file that does not tokenize is
///    reported in both modes; no file is parsed yet (with `--no-prefilter`
///    every file is only opened here);
/// 2. the files that need it are parsed in full (all of them with
///    `--no-prefilter`); then, in a crate that learned a function from its
///    code (issue 19), the files naming it are parsed whole
///    ([`reparse_for_learned_names`]), and elsewhere comparisons of calls
///    are dropped ([`forget_unlearned_calls`]);
/// 3. in the crates that need it, the files only lexed are read again for
///    their structure.
///
/// In stages 2 and 3 the largest files go first, one task each: the run
/// does not end on one thread parsing a big file the others could have
/// shared. Lexing is fast enough that stage 1 needs no order.
fn per_file_pass(
    mut inputs: Vec<Input>,
    named: Vec<usize>,
    pool: Option<&rayon::ThreadPool>,
    progress: &(dyn Fn(usize) + Sync),
    cache: Option<&cache::FileCache>,
) -> PerFile {
    let n = inputs.len();
    // Each item a task of its own, on the big stacks.
    fn each<T: Sync, R: Send>(
        pool: Option<&rayon::ThreadPool>,
        items: &[T],
        f: impl Fn(&T) -> R + Sync,
    ) -> Vec<R> {
        on_big_stack(pool, || items.par_iter().with_max_len(1).map(&f).collect())
    }
    // Each configuration's prefilter, built once: no vocabulary compared per
    // file. (A configuration is known by its address, which its `Arc` keeps
    // for the run; runs have one or a few.)
    let address = |input: &Input| Arc::as_ptr(&input.config) as usize;
    let mut prepared: Vec<(usize, prefilter::Prepared)> = Vec::new();
    for input in inputs.iter().filter(|input| input.prefilter) {
        if !prepared.iter().any(|(c, _)| *c == address(input)) {
            prepared.push((
                address(input),
                prefilter::Prepared::new(&input.config.vocab),
            ));
        }
    }
    let mut surveys: Vec<Survey> = each(pool, &inputs, |input| {
        let prepared = prepared
            .iter()
            .find(|(c, _)| input.prefilter && *c == address(input))
            .map(|(_, p)| p);
        let survey = match cache {
            Some(cache) => cache.survey(input, || survey(input, prepared)),
            None => survey(input, prepared),
        };
        if matches!(survey.verdict, Verdict::Lexed | Verdict::Unreadable(_)) {
            progress(n);
        }
        survey
    });

    // Where each file was named first.
    let mut first = HashMap::with_capacity(n);
    for (named, survey) in named.iter().zip(&surveys) {
        first
            .entry(&survey.identity)
            .and_modify(|at: &mut usize| *at = (*at).min(*named))
            .or_insert(*named);
    }
    let keep: Vec<bool> = named
        .iter()
        .zip(&surveys)
        .map(|(named, survey)| first[&survey.identity] == *named)
        .collect();
    drop(first);
    drop(named);
    for (survey, _) in surveys.iter().zip(&keep).filter(|(_, keep)| !**keep) {
        if matches!(survey.verdict, Verdict::Parse | Verdict::Analyze) {
            progress(n);
        }
    }
    retain_marked(&mut inputs, &keep);
    retain_marked(&mut surveys, &keep);

    let largest_first = |mut todo: Vec<usize>, surveys: &[Survey]| {
        todo.sort_by_key(|&i| std::cmp::Reverse(surveys[i].size));
        todo
    };
    let to_read = largest_first(
        (0..inputs.len())
            .filter(|&i| matches!(surveys[i].verdict, Verdict::Parse | Verdict::Analyze))
            .collect(),
        &surveys,
    );
    // Facts with nothing in them (with `--no-prefilter`, those of most
    // files) are not held (`empty`): they are given back, empty, to the
    // files of the crates the crate pass reads. (Boxed meanwhile: a run of
    // many files holds a pointer for each, not room for facts.)
    let read = each(pool, &to_read, |&i| {
        let (how, step): (fn(FileId, &Input, String) -> FileOutcome, _) = match surveys[i].verdict {
            Verdict::Parse => (parsed, cache::Step::Parse),
            _ => (analyze_text, cache::Step::Analyze),
        };
        let outcome = match cache {
            Some(cache) => cache.outcome(step, file_id(i), &inputs[i], || {
                read_and(file_id(i), &inputs[i], how)
            }),
            None => read_and(file_id(i), &inputs[i], how),
        };
        progress(n);
        let empty = outcome.result.as_deref().is_ok_and(FileFacts::is_empty);
        (i, (!empty).then(|| Box::new(outcome)))
    });
    let mut outcomes: Vec<(usize, FileOutcome)> = Vec::new();
    let mut empty: Vec<usize> = Vec::new();
    for (i, outcome) in read {
        match outcome {
            Some(outcome) => outcomes.push((i, *outcome)),
            None => empty.push(i),
        }
    }
    // Packages share value sets with those of their configuration, as
    // `learn` shares what it learns (which changes the configurations).
    // Dependencies learn with the packages whose configuration they were
    // given, and share no value set with them (`values::groups`).
    let learn_groups: Vec<usize> = (inputs.iter())
        .map(|i| Arc::as_ptr(&i.config) as usize)
        .collect();
    let groups = values::groups(&inputs);
    let (learned, dependencies) = learn(
        &mut inputs,
        &learn_groups,
        &mut surveys,
        &mut outcomes,
        &mut empty,
        pool,
        cache,
    );
    let whole = reparse_for_learned_names(pool, &inputs, &surveys, &outcomes, &groups, cache);
    let reparsed: std::collections::HashSet<usize> = whole.iter().map(|(i, _)| *i).collect();
    outcomes.retain(|(i, _)| !reparsed.contains(i));
    empty.retain(|i| !reparsed.contains(i));
    outcomes.extend(whole);
    let shared = values::shared(&inputs, &groups, &outcomes);
    forget_unlearned_calls(&inputs, &mut outcomes, &shared);
    for (i, survey) in surveys.iter().enumerate() {
        if let Verdict::Unreadable(message) = &survey.verdict {
            outcomes.push((i, unreadable(file_id(i), message.clone())));
        }
    }

    // Crates whose files the crate pass (or the check of bad files) reads:
    // those with a file a report may point into. A file never opened needs
    // its crate read no more than a file in which nothing can be found.
    // Calls of singletons need no structure (`initialized_twice` reads the
    // functions of the files holding them, which are kept): a crate with
    // nothing else is not read again for it.
    let needed: std::collections::HashSet<usize> = outcomes
        .iter()
        .filter(|(i, outcome)| {
            inputs[*i].skip.is_none()
                && inputs[*i].dependency.is_none()
                && outcome.text.is_some()
                && match &outcome.result {
                    Ok(facts) => facts.needs_structure(),
                    Err(_) => true,
                }
        })
        .map(|(i, _)| inputs[*i].krate)
        .collect();
    outcomes.extend(
        (empty.into_iter())
            .filter(|&i| needed.contains(&inputs[i].krate))
            .map(|i| {
                let result = Ok(Arc::default());
                (i, FileOutcome { result, text: None })
            }),
    );
    let structure = largest_first(
        (0..inputs.len())
            .filter(|&i| {
                matches!(surveys[i].verdict, Verdict::Lexed)
                    && needed.contains(&inputs[i].krate)
                    && !reparsed.contains(&i)
            })
            .collect(),
        &surveys,
    );
    outcomes.extend(each(pool, &structure, |&i| {
        let read = || read_and(file_id(i), &inputs[i], analyze_text);
        let outcome = match cache {
            Some(cache) => cache.outcome(cache::Step::Analyze, file_id(i), &inputs[i], read),
            None => read(),
        };
        (i, outcome)
    }));
    // The facts of files parsed in full in which nothing can be found (with
    // `--no-prefilter`, most files), in crates the crate pass does not read,
    // freed on the pool: one thread freeing thousands of files' facts, made
    // on the others, took 1% of a run.
    let inputs_ref = &inputs;
    outcomes = on_big_stack(pool, || {
        (outcomes.into_par_iter())
            .filter(|(i, outcome)| outcome.text.is_some() || needed.contains(&inputs_ref[*i].krate))
            .collect()
    });
    outcomes.sort_unstable_by_key(|(i, _)| *i);
    (inputs, outcomes, learned, shared, dependencies)
}

/// Put `items` in the order `order` says (`order[k]`: the place of the item
/// to put at `k`), in place: along each cycle of the permutation, each
/// item swapped into its place.
/// Of the references in the files of each package, how many its model
/// left unresolved, by why (each reference once: a package's model holds
/// the workspace packages it depends on). For `backend-lint config`: it
/// builds every package's model.
fn unresolved(packages: HashMap<Option<Arc<Path>>, Vec<PathBuf>>) -> Unresolved {
    use std::collections::HashSet;
    let mut packages: Vec<_> = packages.into_iter().collect();
    packages.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let mut seen: HashSet<(PathBuf, usize)> = HashSet::new();
    let mut counts: HashMap<crate::semantic::Why, usize> = HashMap::new();
    let mut references = 0;
    let workspaces = Arc::new(model::Workspaces::default());
    for (root, paths) in packages {
        let listed: HashSet<PathBuf> = paths.iter().cloned().collect();
        let lazy = model::lazy_in(root, paths, workspaces.clone());
        let Some(model) = lazy.get() else {
            continue;
        };
        for r in model.references() {
            if !listed.contains(&r.file) || !seen.insert((r.file, r.range.start)) {
                continue;
            }
            references += 1;
            if let crate::semantic::Resolved::Unresolved(why) = r.target {
                *counts.entry(why).or_default() += 1;
            }
        }
    }
    let mut counts: Vec<_> = counts.into_iter().collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    Unresolved {
        references,
        by_why: counts,
    }
}

fn permute<T>(items: &mut [T], order: &[usize]) {
    let mut placed = vec![false; items.len()];
    for start in 0..items.len() {
        let mut k = start;
        while !placed[k] {
            placed[k] = true;
            let from = order[k];
            if from == start {
                break;
            }
            items.swap(k, from);
            k = from;
        }
    }
}

/// Keep the items of `items` whose mark in `keep` (one per item) is set.
fn retain_marked<T>(items: &mut Vec<T>, keep: &[bool]) {
    let mut marks = keep.iter();
    items.retain(|_| marks.next().copied().unwrap_or(false));
}

/// Stage 1 of the per-file pass for one file: open it, and read and lex it
/// when the prefilter may skip it (`prepared`, its configuration's).
fn survey(input: &Input, prepared: Option<&prefilter::Prepared>) -> Survey {
    // A file to skip is never opened: a FIFO would block the run, a link
    // out of the checkout would show another file's text in the report.
    let opened = match &input.skip {
        Some(why) => Err(why.clone()),
        None => open(&input.path),
    };
    let opened = match opened {
        Ok(opened) => opened,
        Err(message) => {
            return Survey {
                identity: FileIdentity::Path(input.path.clone()),
                size: 0,
                verdict: Verdict::Unreadable(message),
                called: None,
            };
        }
    };
    let (identity, size) = FileIdentity::of(&input.path, &opened.meta);
    let Some(prepared) = prepared else {
        return Survey {
            identity,
            size,
            verdict: Verdict::Parse,
            called: None,
        };
    };
    thread_local! {
        // Most files are only lexed: read into one buffer per thread.
        static BUFFER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    // What the text calls is kept from this one read: the learning asks
    // it before reading the file again for a name learned later.
    if let Some(text) = &input.text {
        let (verdict, called) = verdict(prepared, text);
        return Survey {
            identity,
            size,
            verdict,
            called: Some(called),
        };
    }
    let (verdict, called) = BUFFER.with(|buffer| {
        let buffer = &mut *buffer.borrow_mut();
        let read = match read_opened(opened, buffer).and_then(|()| utf8(buffer)) {
            Ok(text) => {
                let (verdict, called) = verdict(prepared, text);
                (verdict, Some(called))
            }
            Err(message) => (Verdict::Unreadable(message), None),
        };
        // A big file's buffer is not kept for the rest of the run.
        if buffer.capacity() > 1 << 20 {
            *buffer = Vec::new();
        }
        read
    });
    Survey {
        identity,
        size,
        verdict,
        called,
    }
}

/// What the rest of the pass does with a file the prefilter may skip, and
/// the names it calls (recorded by the lexer as it reads the file; a file
/// it does not read to the end is read for them alone).
fn verdict(prepared: &prefilter::Prepared, text: &str) -> (Verdict, prefilter::Called) {
    // A file the lexer does not read, or in which it finds what may start a
    // fact, is parsed in full (the structure reader would give up too).
    let (survey, called) = prefilter::survey_calls(text, prepared);
    let called = called.unwrap_or_else(|| prefilter::Called::of(text));
    if !survey.lexes {
        return (Verdict::Parse, called);
    }
    // Suppression comments are reported at, so they need the crate pass.
    // (Only whether there are any counts here: no id is needed.)
    let directives = survey.directives.then(|| comments::scan(0, text));
    let verdict = match directives {
        Some(d) if !(d.directives.is_empty() && d.malformed.is_empty()) => Verdict::Analyze,
        _ => Verdict::Lexed,
    };
    (verdict, called)
}

/// What makes two paths one file: the device and inode on Unix (from the
/// open handle, where canonicalizing reads every link of the path), the
/// canonical path elsewhere, the path itself when neither can be had.
#[derive(Clone, PartialEq, Eq, Hash)]
enum FileIdentity {
    #[cfg(unix)]
    Inode(u64, u64),
    Path(PathBuf),
}

impl FileIdentity {
    /// The identity of the file opened at `path`, and its size.
    fn of(path: &std::path::Path, meta: &std::fs::Metadata) -> (FileIdentity, u64) {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let _ = path;
            (FileIdentity::Inode(meta.dev(), meta.ino()), meta.len())
        }
        #[cfg(not(unix))]
        {
            let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
            (FileIdentity::Path(path), meta.len())
        }
    }
}

/// Put the errors of files no target compiles in `skipped`, the others in
/// `errors`: a file that does not parse fails nothing when no `mod` and no
/// target leads to it (a leftover, an unfinished file), in a cargo package.
/// Files outside any package are always taken to be compiled. `crates`:
/// the facts of each crate with a file that failed, by crate number.
fn skip_uncompiled(
    outcome: &mut Outcome,
    failed: Vec<Failed>,
    crates: &[&[Analysed]],
    crate_of: &HashMap<usize, CrateOf>,
) {
    let package = |krate: usize| -> Vec<(&std::path::Path, &FileFacts)> {
        let at = crates.binary_search_by_key(&krate, |files| files[0].krate);
        (at.ok().map(|at| crates[at]).unwrap_or_default().iter())
            .map(|f| (f.path.as_path(), &*f.facts))
            .collect()
    };
    let mut uncompiled = Vec::new();
    for Failed {
        error,
        krate,
        target,
    } in failed
    {
        let path = &outcome.sources.get(error.file).path;
        let root = crate_of.get(&krate).and_then(|c| c.package_root.as_deref());
        let compiled = target
            || root.is_none_or(|root| crate::analysis::modules::is_layout_root(path, root))
            || crate::analysis::modules::is_declared(path, &package(krate));
        if compiled {
            outcome.errors.push(error);
        } else {
            uncompiled.push(FileError {
                message: format!("{} (no target of its package compiles it)", error.message),
                ..error
            });
        }
    }
    if !uncompiled.is_empty() {
        outcome.skipped.extend(uncompiled);
        outcome.skipped.sort_by_key(|e| e.file);
    }
}

/// syn's message when the lexer fails says nothing a user can act on.
fn explain_parse_error(e: &syn::Error) -> String {
    let message = e.to_string();
    if message == "cannot parse string into token stream" {
        "the file does not tokenize: an unclosed or unbalanced bracket, or an unterminated \
         string, character literal or block comment"
            .to_string()
    } else {
        message
    }
}

/// Run `f` in the pool of large-stack threads, or here if none could be made.
fn on_big_stack<R: Send>(pool: Option<&rayon::ThreadPool>, f: impl FnOnce() -> R + Send) -> R {
    match pool {
        Some(pool) => pool.install(f),
        None => f(),
    }
}

fn file_id(i: usize) -> FileId {
    FileId::try_from(i).expect("fewer than 2^32 files")
}

#[cfg(test)]
mod tests {
    #[test]
    fn permute_puts_each_item_where_the_order_says() {
        // Fixed points, a cycle of two and one of three.
        let order = [0, 4, 3, 5, 1, 2];
        let mut items: Vec<char> = "abcdef".chars().collect();
        super::permute(&mut items, &order);
        let expected: Vec<char> = order.iter().map(|&i| (b'a' + i as u8) as char).collect();
        assert_eq!(items, expected);
    }
}
