//! Runs the two passes over a set of files.

pub mod atomic;
pub mod cache;
pub mod dep_sources;
mod deps;
pub mod discover;
pub mod fix;
pub mod init;
mod manifest;
#[cfg(feature = "testing")]
pub mod model;
#[cfg(not(feature = "testing"))]
mod model;
pub mod summary_cache;
pub mod suppress;
mod values;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::analysis::{CrateFacts, extract, infer};
use crate::config::{Config, Level, Vocabulary};
use crate::lints::apply::{levels::apply_levels, suppression};
use crate::lints::{Check, Lint};
use crate::model::diagnostic::{Diagnostic, FileError};
use crate::model::facts::FileFacts;
use crate::model::facts::Inferred;
use crate::model::facts::Operand;
use crate::model::source::{FileId, SourceFile, SourceMap};
use crate::prefilter;
use crate::syntax::comments;
use crate::syntax::lex;
use crate::syntax::limits::{MAX_CHAIN, MAX_NESTING};
use crate::syntax::parse::{SpanConv, parseable_text};

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
    pub inferred: Vec<(Inferred, String)>,
    /// What each dependency read in this run teaches, for the cache
    /// (issue 29): those with a key ([`dep_sources::Dependency::key`]).
    pub dependency_summaries: Vec<(Arc<dep_sources::Dependency>, summary_cache::Summary)>,
    /// The APIs the dependencies taught, read or cached, by item path.
    pub dependency_apis: Vec<summary_cache::Api>,
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
    // Without lints (`backend-lint config`), what was inferred is listed
    // with its place: the displays of files whose text is not held.
    let inferring = lints.is_empty();
    let displays: Vec<String> = match inferring {
        true => inputs.iter().map(|i| i.display.clone()).collect(),
        false => Vec::new(),
    };
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
    for (i, input) in inputs.into_iter().enumerate() {
        // A dependency's file is learned from, never reported on.
        if input.dependency.is_some() {
            per_file.next_if(|(at, _)| *at == i);
            outcome.sources.add_unheld();
            continue;
        }
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
    // run's file at each path the models name. Not in the language
    // server's runs (`cache`) yet: a model would be built again at each
    // keystroke (1.5 s on torsh-backend) until it is kept with the cache.
    let models: HashMap<usize, crate::semantic::Lazy> = (crates.iter())
        .filter(|_| cache.is_none())
        .map(|files| {
            let root = crate_of[&files[0].krate].package_root.clone();
            let paths = files.iter().map(|f| f.path.clone()).collect();
            (files[0].krate, model::lazy(root, paths))
        })
        .collect();
    let ids: std::sync::OnceLock<HashMap<&Path, FileId>> = std::sync::OnceLock::new();
    let real_ids: std::sync::OnceLock<HashMap<PathBuf, FileId>> = std::sync::OnceLock::new();
    let file_id = |p: &Path| {
        let ids = ids.get_or_init(|| files.iter().map(|f| (f.path.as_path(), f.id)).collect());
        // Another package's file, as cargo names it: by its real path.
        ids.get(p).copied().or_else(|| {
            let real = real_ids.get_or_init(|| {
                (files.iter())
                    .filter_map(|f| Some((std::fs::canonicalize(&f.path).ok()?, f.id)))
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
                if !inferring && !files.iter().any(|f| shown(&f)) {
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
                let crate_facts = CrateFacts::new(
                    files
                        .iter()
                        .map(|f| (f.id, f.path.as_path(), &*f.facts))
                        .collect(),
                    &config.vocab,
                    package_root.as_deref(),
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
        inferred.sort_by(|a, b| (a.kind, &a.name, &a.why).cmp(&(b.kind, &b.name, &b.why)));
        inferred.dedup();
        outcome.inferred = (inferred.into_iter())
            .map(|i| {
                let place = format!("{}:{}", displays[i.span.file as usize], i.line);
                (i, place)
            })
            .collect();
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
    let needed: std::collections::HashSet<usize> = outcomes
        .iter()
        .filter(|(i, outcome)| {
            inputs[*i].skip.is_none() && inputs[*i].dependency.is_none() && outcome.text.is_some()
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

/// Registration functions learned from the code (issue 19), in rounds:
/// learn from the functions of the files parsed so far, then parse again,
/// with the learned names as vocabulary, the files that name one (a caller,
/// or a wrapper the next round learns from), until a round learns nothing
/// new. With `--no-prefilter` every file was parsed already and one more
/// round reads the callers; in the default mode the prefilter finds the
/// learned names as it finds the configured ones (the files defining a
/// rejection are parsed for `contains_key` and `Occupied`), so both modes
/// parse the same calls with the same vocabulary.
///
/// Each package learns from its own files; what surely rejects a second key
/// ([`infer::Learned::exported`]) is also used by the other packages checked
/// with the same configuration that depend on it ([`deps::Reach`]), as a
/// linker defined in one package of a workspace is called from the others;
/// a package that cannot call it is not read again for its name. A name two
/// packages learned apart is used by neither of the others (which one they
/// call is not known).
/// Returned per crate number.
fn learn(
    inputs: &mut [Input],
    groups: &[usize],
    surveys: &mut [Survey],
    outcomes: &mut Vec<(usize, FileOutcome)>,
    empty: &mut Vec<usize>,
    pool: Option<&rayon::ThreadPool>,
    cache: Option<&cache::FileCache>,
) -> (HashMap<usize, Arc<infer::Learned>>, Dependencies) {
    // Each input's configuration before learning; packages share what they
    // learn with those of the same group (`values::groups`).
    let base: Vec<Arc<Config>> = inputs.iter().map(|i| i.config.clone()).collect();
    let mut first: HashMap<usize, usize> = HashMap::new();
    for (i, input) in inputs.iter().enumerate() {
        first.entry(input.krate).or_insert(i);
    }
    let group = |krate: usize| groups[first[&krate]];
    let mut learned: HashMap<usize, Arc<infer::Learned>> = HashMap::new();
    // Who may call whom, read from the manifests once something is exported.
    let mut reach: Option<deps::Reach> = None;
    // What the dependencies whose summary was cached teach (issue 29): no
    // file of theirs is read.
    let cached: HashMap<usize, infer::Learned> = (inputs.iter())
        .filter_map(|i| Some((i.krate, i.dependency.as_ref()?.summary.as_ref()?.learned())))
        .collect();
    // What each dependency read teaches, as of the last round.
    let mut dependency_own: HashMap<usize, infer::Learned> = HashMap::new();
    // Each round reads again the files naming what is new: a chain of
    // wrappers as long as the files are many would read them all that many
    // times. Both modes stop at the same round.
    for _ in 0..MAX_LEARNING_ROUNDS {
        let mut own = learned_by_crate(inputs, &base, outcomes, &learned);
        dependency_own = (own.iter())
            .filter(|(krate, _)| inputs[first[*krate]].dependency.is_some())
            .map(|(krate, l)| (*krate, l.exported()))
            .collect();
        own.extend(cached.iter().map(|(k, l)| (*k, l.clone())));
        if own.is_empty() {
            break;
        }
        let exports = exported_by_group(&own, group);
        if !exports.is_empty() && reach.is_none() {
            reach = Some(deps::Reach::new(inputs));
        }
        let may_call = |caller: usize, callee: usize| {
            caller != callee && reach.as_ref().is_some_and(|r| r.may_call(caller, callee))
        };
        // Each crate with something new, and the names new to it: those
        // that learned something, and those depending on one exporting.
        let mut news: HashMap<usize, (Arc<infer::Learned>, Vec<String>)> = HashMap::new();
        let mut krates: Vec<usize> = match exports.is_empty() {
            true => own.keys().copied().collect(),
            false => first.keys().copied().collect(),
        };
        krates.sort_unstable();
        for krate in krates {
            let mut now = own.get(&krate).cloned().unwrap_or_default();
            let callees = (exports.get(&group(krate)).into_iter().flatten())
                .filter(|(from, _)| may_call(krate, *from))
                .map(|(_, exported)| exported);
            for exported in unique_exports(callees) {
                now.import(&exported);
            }
            let new = now.new_names(learned.get(&krate).map(|l| &**l));
            if !new.is_empty() {
                news.insert(krate, (Arc::new(now), new));
            }
        }
        if news.is_empty() {
            break;
        }
        let todo: Vec<usize> = (0..inputs.len())
            .filter(|&i| {
                news.contains_key(&inputs[i].krate)
                    && !matches!(surveys[i].verdict, Verdict::Unreadable(_))
            })
            .collect();
        let mut configs: HashMap<usize, Arc<Config>> = HashMap::new();
        for &i in &todo {
            let (now, _) = &news[&inputs[i].krate];
            let config = configs.entry(inputs[i].krate).or_insert_with(|| {
                let make = || {
                    let mut config = (*base[i]).clone();
                    config.vocab = (config.vocab).with_learned(
                        &now.functions,
                        &now.switch_fields,
                        &now.switches,
                    );
                    Arc::new(config)
                };
                match cache {
                    Some(cache) => cache.learned_config(&base[i], now, make),
                    None => make(),
                }
            });
            inputs[i].config = config.clone();
        }
        // A file is parsed again where a new name may start a fact (a call,
        // a switch field set), as the prefilter finds one: not where it is
        // only declared (`fn define(`), written in a comment or a string.
        let prepared: HashMap<usize, prefilter::Prepared> = (configs.iter())
            .map(|(krate, config)| (*krate, prefilter::Prepared::new(&config.vocab)))
            .collect();
        let (read, news) = (&*inputs, &news);
        let redone = read_again_naming(
            pool,
            read,
            &todo,
            |krate| &news[&krate].1,
            |i, text| {
                let parse = || {
                    let starts_fact =
                        !prefilter::survey_with(&text, &prepared[&read[i].krate]).lexes;
                    starts_fact.then(|| parsed(file_id(i), &read[i], text.clone()))
                };
                match cache {
                    Some(cache) => {
                        cache.maybe_outcome(cache::Step::Learn, file_id(i), &read[i], parse)
                    }
                    None => parse(),
                }
            },
            cache,
        );
        let again: std::collections::HashSet<usize> = redone.iter().map(|(i, _)| *i).collect();
        for &i in &again {
            surveys[i].verdict = Verdict::Parse;
        }
        empty.retain(|e| !again.contains(e));
        outcomes.retain(|(at, _)| !again.contains(at));
        outcomes.extend(redone);
        for (krate, (now, _)) in news.iter() {
            learned.insert(*krate, now.clone());
        }
    }
    let dependencies = dependency_summaries(inputs, dependency_own, &cached);
    (learned, dependencies)
}

/// What each dependency read teaches ([`summary_cache::Summary`], with its
/// APIs' item paths and places), and the APIs of those cached.
fn dependency_summaries(
    inputs: &[Input],
    read: HashMap<usize, infer::Learned>,
    cached: &HashMap<usize, infer::Learned>,
) -> Dependencies {
    let mut first: HashMap<usize, usize> = HashMap::new();
    for (i, input) in inputs.iter().enumerate() {
        first.entry(input.krate).or_insert(i);
    }
    let mut out = Dependencies {
        own: inputs.iter().map(|i| i.dependency.is_none()).collect(),
        ..Dependencies::default()
    };
    let place = |file: u32| {
        let input = inputs.get(file as usize)?;
        let dep = input.dependency.as_ref()?;
        Some((input.display.clone(), dep.module_path(&input.path)))
    };
    // Every dependency read has a summary, empty when it taught nothing:
    // a second run opens none of its files either.
    let mut krates: Vec<usize> = (first.iter())
        .filter(|(_, i)| {
            inputs[**i]
                .dependency
                .as_ref()
                .is_some_and(|d| d.summary.is_none())
        })
        .map(|(krate, _)| *krate)
        .collect();
    krates.sort_unstable();
    for krate in krates {
        let Some(dep) = inputs[first[&krate]].dependency.clone() else {
            continue;
        };
        let learned = read.get(&krate).cloned().unwrap_or_default();
        let summary = summary_cache::Summary::of(&learned, place);
        out.apis.extend(summary.apis.iter().cloned());
        out.summaries.push((dep, summary));
    }
    for krate in cached.keys() {
        let summary = inputs[first[krate]]
            .dependency
            .as_ref()
            .and_then(|d| d.summary.as_ref());
        out.apis
            .extend(summary.into_iter().flat_map(|s| s.apis.iter().cloned()));
    }
    out.apis
        .sort_by(|a, b| (&a.item_path, &a.place).cmp(&(&b.item_path, &b.place)));
    out.apis.dedup();
    out
}

/// The exports of the packages one package may call, without a name (and
/// arity) two of them export: which one it calls is not known.
fn unique_exports<'l>(callees: impl Iterator<Item = &'l infer::Learned>) -> Vec<infer::Learned> {
    let callees: Vec<&infer::Learned> = callees.collect();
    // By how many packages, each name and arity: one package may teach a
    // name twice (`func_wrap` of two types, with 3 and 2 parameters).
    let mut count: HashMap<(&str, usize), usize> = HashMap::new();
    for e in &callees {
        let mut mine: Vec<(&str, usize)> = (e.functions.iter())
            .map(|f| (f.name.as_str(), f.arity))
            .collect();
        mine.sort();
        mine.dedup();
        for k in mine {
            *count.entry(k).or_default() += 1;
        }
    }
    (callees.into_iter())
        .map(|e| {
            let mut e = e.clone();
            e.functions
                .retain(|f| count[&(f.name.as_str(), f.arity)] == 1);
            let kept: std::collections::HashSet<String> =
                e.functions.iter().map(|f| f.name.clone()).collect();
            e.inferred.retain(|i| kept.contains(&i.name));
            e.rejecting.retain(|n| kept.contains(n));
            e
        })
        .collect()
}

/// How many rounds of learning a run makes at most: wrappers of wrappers
/// deeper than this are not learned.
const MAX_LEARNING_ROUNDS: usize = 12;

/// What each crate learns from its own files parsed so far.
/// `prior`: what each crate knew after the round before, imports
/// included: a wrapper of a function another package taught is learned.
fn learned_by_crate(
    inputs: &[Input],
    base: &[Arc<Config>],
    outcomes: &[(usize, FileOutcome)],
    prior: &HashMap<usize, Arc<infer::Learned>>,
) -> HashMap<usize, infer::Learned> {
    /// A crate's first input with functions, and its files' displays and facts.
    type Files<'a> = (usize, Vec<(&'a str, &'a FileFacts)>);
    let mut files: HashMap<usize, Files> = HashMap::new();
    for (i, outcome) in outcomes {
        if let Ok(facts) = outcome.result.as_deref()
            && !facts.functions.is_empty()
        {
            let entry = files.entry(inputs[*i].krate).or_insert((*i, Vec::new()));
            entry.1.push((&inputs[*i].display, facts));
        }
    }
    (files.into_iter())
        .map(|(krate, (first, mut files))| {
            files.sort_by_key(|(display, _)| *display);
            let prior = prior.get(&krate).map(|l| &**l);
            (krate, infer::learn(&files, &base[first].vocab, prior))
        })
        .collect()
}

/// What each crate exports, by configuration group (a package imports
/// those of the packages it may call, [`unique_exports`]).
fn exported_by_group(
    own: &HashMap<usize, infer::Learned>,
    group: impl Fn(usize) -> usize,
) -> HashMap<usize, Vec<(usize, infer::Learned)>> {
    let mut out: HashMap<usize, Vec<(usize, infer::Learned)>> = HashMap::new();
    let mut krates: Vec<&usize> = own.keys().collect();
    krates.sort();
    for krate in krates {
        let exported = own[krate].exported();
        if !exported.functions.is_empty() {
            out.entry(group(*krate))
                .or_default()
                .push((*krate, exported));
        }
    }
    out
}

/// The files of `todo` whose text names one of the words `names` gives
/// for their crate, each read again (the text being fixed when there is
/// one: `--fix` analyses in memory) and handed to `parse`, which may still
/// decline it. The one way both learning stages read files again. With a
/// `cache`, a file as it was is not read again to learn that it names none
/// of the same words ([`cache::FileCache::text_naming`]).
fn read_again_naming<'n>(
    pool: Option<&rayon::ThreadPool>,
    inputs: &[Input],
    todo: &[usize],
    names: impl Fn(usize) -> &'n [String] + Sync,
    parse: impl Fn(usize, String) -> Option<FileOutcome> + Sync,
    cache: Option<&cache::FileCache>,
) -> Vec<(usize, FileOutcome)> {
    // One search for all of a crate's words: a word at a time, ten
    // thousand learned names were each searched for in every file.
    let mut words: HashMap<usize, Words> = HashMap::new();
    for &i in todo {
        let krate = inputs[i].krate;
        words
            .entry(krate)
            .or_insert_with(|| Words::new(names(krate)));
    }
    on_big_stack(pool, || {
        todo.par_iter()
            .with_max_len(1)
            .filter_map(|&i| {
                let input = &inputs[i];
                let search = |text: &str| words[&input.krate].named_in(text);
                let text = match cache {
                    Some(cache) => {
                        let read = || input_text(input).ok();
                        cache.text_naming(input, names(input.krate), read, search)?
                    }
                    None => Some(input_text(input).ok()?).filter(|t| search(t))?,
                };
                parse(i, text).map(|o| (i, o))
            })
            .collect()
    })
}

/// Words searched for at once, each as a whole word ([`names_word`]).
struct Words(Option<aho_corasick::AhoCorasick>);

impl Words {
    fn new(words: &[String]) -> Words {
        // The longest word found at a place: a word is named there only
        // when it is the whole identifier, which no shorter word is then.
        let matcher = aho_corasick::AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::LeftmostLongest)
            .build(words.iter().filter(|w| !w.is_empty()));
        Words(matcher.ok().filter(|m| m.patterns_len() > 0))
    }

    /// Whether `text` holds one of the words as a whole word.
    fn named_in(&self, text: &str) -> bool {
        let Some(matcher) = &self.0 else {
            return false;
        };
        let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        let bytes = text.as_bytes();
        matcher.find_iter(bytes).any(|m| {
            let before = m.start() > 0 && word(bytes[m.start() - 1]);
            let after = bytes.get(m.end()).is_some_and(|&b| word(b));
            !before && !after
        })
    }
}

/// Whether `text` holds `name` as a whole word (in code or not: a mention
/// in a comment or a string only costs a parse).
fn names_word(text: &str, name: &str) -> bool {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let bytes = text.as_bytes();
    memchr::memmem::find_iter(bytes, name.as_bytes()).any(|at| {
        let end = at + name.len();
        let before = at > 0 && word(bytes[at - 1]);
        let after = bytes.get(end).is_some_and(|&b| word(b));
        !before && !after
    })
}

/// Stage 2b (issue 19): functions learned in stage 2 (returning only
/// literals, [`FileFacts::value_sets`]; returning platform values,
/// [`FileFacts::platform_fns`]) decide comparisons of their calls, which
/// can be in any file of their crate, in a body the prefilter left out or
/// a file it only lexed; a wrapper of one is learned from such a body. The
/// files of the crate that mention a learned name are parsed whole, as
/// `--no-prefilter` parses them, until no new name is learned (each file
/// once). Crates that learn nothing (nearly all) cost nothing more.
fn reparse_for_learned_names(
    pool: Option<&rayon::ThreadPool>,
    inputs: &[Input],
    surveys: &[Survey],
    outcomes: &[(usize, FileOutcome)],
    groups: &[usize],
    cache: Option<&cache::FileCache>,
) -> Vec<(usize, FileOutcome)> {
    let mut whole: Vec<(usize, FileOutcome)> = Vec::new();
    let mut known: HashMap<usize, std::collections::HashSet<String>> = HashMap::new();
    let mut known_shared: HashMap<usize, std::collections::HashSet<String>> = HashMap::new();
    loop {
        let facts = (outcomes.iter().chain(&whole))
            .filter_map(|(i, o)| Some((inputs[*i].krate, o.result.as_deref().ok()?)));
        let mut own = learned_names(facts);
        for (krate, names) in &mut own {
            let known = known.entry(*krate).or_default();
            names.retain(|n| known.insert(n.clone()));
        }
        // What the packages of the group define (`values::wanted`): a
        // file naming one of its types with a method of it.
        let wanted = values::wanted(inputs, groups, outcomes.iter().chain(&whole));
        let mut fresh = own.clone();
        for (krate, w) in &wanted {
            let known = known_shared.entry(*krate).or_default();
            let words = w.words.iter().filter(|n| known.insert(n.to_string()));
            fresh.entry(*krate).or_default().extend(words.cloned());
        }
        fresh.retain(|_, names| !names.is_empty());
        if fresh.is_empty() {
            return whole;
        }
        let done: std::collections::HashSet<usize> = whole.iter().map(|(i, _)| *i).collect();
        let todo: Vec<usize> = (0..inputs.len())
            .filter(|&i| {
                inputs[i].prefilter
                    && inputs[i].dependency.is_none()
                    && !done.contains(&i)
                    && fresh.contains_key(&inputs[i].krate)
                    && matches!(
                        surveys[i].verdict,
                        Verdict::Lexed | Verdict::Parse | Verdict::Analyze
                    )
            })
            .collect();
        let own_words: HashMap<usize, Words> = (own.iter())
            .map(|(krate, names)| (*krate, Words::new(names)))
            .collect();
        let more = read_again_naming(
            pool,
            inputs,
            &todo,
            |krate| &fresh[&krate],
            |i, text| {
                let krate = inputs[i].krate;
                let own = own_words.get(&krate).is_some_and(|w| w.named_in(&text));
                let group = wanted.get(&krate).is_some_and(|w| w.named_in(&text));
                if !(own || group) {
                    return None;
                }
                let parse = || {
                    let result = parse_and_extract(file_id(i), &text, &inputs[i].config.vocab);
                    Some(kept(text.clone(), result))
                };
                match cache {
                    Some(cache) => {
                        cache.maybe_outcome(cache::Step::Whole, file_id(i), &inputs[i], parse)
                    }
                    None => parse(),
                }
            },
            cache,
        );
        whole.extend(more);
    }
}

/// Comparisons of calls only ([`Operand::Call`]) matter in a crate that
/// learned a function from its code: elsewhere no lint can report them, so
/// they are dropped, and a file with nothing else is kept for no report
/// (nor is its crate read for one). Most crates learn nothing.
fn forget_unlearned_calls(
    inputs: &[Input],
    outcomes: &mut [(usize, FileOutcome)],
    shared: &HashMap<usize, Arc<crate::analysis::shared::Shared>>,
) {
    let learns = |f: &FileFacts| {
        !(f.value_sets.is_empty() && f.platform_fns.is_empty() && f.context_fns.is_empty())
    };
    let learning: std::collections::HashSet<usize> = (outcomes.iter())
        .filter(|(_, o)| o.result.as_deref().is_ok_and(learns))
        .map(|(i, _)| inputs[*i].krate)
        .collect();
    // The calls each group's value sets may decide, once per group.
    let mut calls: HashMap<*const crate::analysis::shared::Shared, _> = HashMap::new();
    for group in shared.values() {
        calls
            .entry(Arc::as_ptr(group))
            .or_insert_with(|| group.calls());
    }
    for (i, outcome) in outcomes.iter_mut() {
        let Ok(facts) = &mut outcome.result else {
            continue;
        };
        let own = learning.contains(&inputs[*i].krate);
        // A call on a field is decided by a value set of a type only (of
        // the group's); any other call, in a crate that learned a function.
        let group = shared.get(&inputs[*i].krate);
        let may_decide = |c: &crate::model::facts::ValueCall| {
            group.is_some_and(|g| g.may_decide(c, &facts.fields, &calls[&Arc::as_ptr(g)]))
        };
        let kept = |s: &crate::model::facts::Side| match &s.operand {
            Operand::Raw | Operand::Canonical => true,
            Operand::Call(c) if c.fields.is_empty() && own => true,
            Operand::Call(c) => may_decide(c),
            _ => false,
        };
        let keep: Vec<bool> = (facts.comparisons.iter())
            .map(|c| c.sides.iter().any(kept))
            .collect();
        // Facts shared with `run::cache` are copied only when one goes.
        if keep.contains(&false) {
            retain_marked(&mut Arc::make_mut(facts).comparisons, &keep);
        }
        if !facts.may_be_reported() {
            outcome.text = None;
        }
    }
}

/// The names of the functions each crate's facts teach: value sets, and
/// sources and canonicalizers with the wrappers of them (by name: a name
/// too many only costs a parse); and the arrays of platform names, which
/// a value set may index in a body the prefilter left out.
fn learned_names<'f>(
    facts: impl Iterator<Item = (usize, &'f FileFacts)>,
) -> HashMap<usize, Vec<String>> {
    let mut fns: HashMap<usize, Vec<&'f crate::model::facts::PlatformFn>> = HashMap::new();
    let mut names: HashMap<usize, std::collections::HashSet<String>> = HashMap::new();
    for (krate, f) in facts {
        let sets = f.value_sets.iter().map(|v| v.call.name.clone());
        names.entry(krate).or_default().extend(sets);
        // A function indexing such an array may be a value set.
        names
            .entry(krate)
            .or_default()
            .extend(f.str_arrays.iter().cloned());
        fns.entry(krate).or_default().extend(&f.platform_fns);
    }
    for (krate, fns) in fns {
        let names = names.entry(krate).or_default();
        loop {
            let before = names.len();
            for f in &fns {
                let learned = match &f.returns {
                    Operand::Call(c) => names.contains(&c.name),
                    _ => true,
                };
                if learned {
                    names.insert(f.call.name.clone());
                }
            }
            if names.len() == before {
                break;
            }
        }
    }
    names
        .into_iter()
        .map(|(k, n)| (k, n.into_iter().collect()))
        .collect()
}

/// Put `items` in the order `order` says (`order[k]`: the place of the item
/// to put at `k`), in place: along each cycle of the permutation, each
/// item swapped into its place.
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
            };
        }
    };
    let (identity, size) = FileIdentity::of(&input.path, &opened.meta);
    let Some(prepared) = prepared else {
        return Survey {
            identity,
            size,
            verdict: Verdict::Parse,
        };
    };
    thread_local! {
        // Most files are only lexed: read into one buffer per thread.
        static BUFFER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    if let Some(text) = &input.text {
        let verdict = verdict(prepared, text);
        return Survey {
            identity,
            size,
            verdict,
        };
    }
    let verdict = BUFFER.with(|buffer| {
        let buffer = &mut *buffer.borrow_mut();
        let verdict = match read_opened(opened, buffer).and_then(|()| utf8(buffer)) {
            Ok(text) => verdict(prepared, text),
            Err(message) => Verdict::Unreadable(message),
        };
        // A big file's buffer is not kept for the rest of the run.
        if buffer.capacity() > 1 << 20 {
            *buffer = Vec::new();
        }
        verdict
    });
    Survey {
        identity,
        size,
        verdict,
    }
}

/// What the rest of the pass does with a file the prefilter may skip.
fn verdict(prepared: &prefilter::Prepared, text: &str) -> Verdict {
    // A file the lexer does not read, or in which it finds what may start a
    // fact, is parsed in full (the structure reader would give up too).
    let survey = prefilter::survey_with(text, prepared);
    if !survey.lexes {
        return Verdict::Parse;
    }
    // Suppression comments are reported at, so they need the crate pass.
    // (Only whether there are any counts here: no id is needed.)
    let directives = survey.directives.then(|| comments::scan(0, text));
    if directives.is_none_or(|d| d.directives.is_empty() && d.malformed.is_empty()) {
        Verdict::Lexed
    } else {
        Verdict::Analyze
    }
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

/// Read a file, then `how` (parse, or [`analyze_text`]). Never panics on
/// bad input.
fn read_and(
    id: FileId,
    input: &Input,
    how: fn(FileId, &Input, String) -> FileOutcome,
) -> FileOutcome {
    match input_text(input) {
        Ok(text) => how(id, input, text),
        Err(message) => unreadable(id, message),
    }
}

/// An input's text: the one given (a pass of `--fix`), else the file's.
fn input_text(input: &Input) -> Result<String, String> {
    match &input.text {
        Some(text) => Ok(text.to_string()),
        None => read_text(&input.path),
    }
}

/// A file that could not be read, and why.
fn unreadable(id: FileId, message: String) -> FileOutcome {
    let error = FileError {
        file: id,
        message,
        span: None,
    };
    FileOutcome {
        result: Err(error),
        text: Some(Arc::from("")),
    }
}

/// Read a file's structure only ([`prefilter::structure_only`]) when it
/// cannot yield a finding and the input allows, else parse it in full.
fn analyze_text(id: FileId, input: &Input, text: String) -> FileOutcome {
    let vocab = &input.config.vocab;
    let structure_only = input
        .prefilter
        .then(|| prefilter::structure_only(id, &text, vocab))
        .flatten();
    match structure_only {
        Some(facts) => kept(text, Ok(facts)),
        None => parsed(id, input, text),
    }
}

/// A file parsed in full; in the default mode, without the function
/// bodies that hold nothing the walker records
/// ([`prefilter::without_quiet_bodies`]). A file whose rest does not parse
/// is parsed whole, for the error `--no-prefilter` gives.
fn parsed(id: FileId, input: &Input, text: String) -> FileOutcome {
    let vocab = &input.config.vocab;
    let reduced = input
        .prefilter
        .then(|| prefilter::without_quiet_bodies(&text, vocab))
        .flatten();
    let result = match reduced.map(|reduced| extract_text(id, &text, Some(&reduced), vocab, true)) {
        Some(Ok(facts)) => Ok(facts),
        _ => parse_and_extract(id, &text, vocab),
    };
    kept(text, result)
}

/// The outcome of a file, with its text if a report may point into it
/// (excerpts, line numbers, fingerprints).
fn kept(text: String, result: Result<FileFacts, FileError>) -> FileOutcome {
    let shown = result.as_ref().map_or(true, FileFacts::may_be_reported);
    FileOutcome {
        text: shown.then(|| Arc::from(text)),
        result: result.map(Arc::new),
    }
}

/// A file's text, or why it was not analysed. The file is opened once (its
/// size from the open handle) and read into a buffer of that size.
fn read_text(path: &std::path::Path) -> Result<String, String> {
    let mut bytes = Vec::new();
    read_opened(open(path)?, &mut bytes)?;
    String::from_utf8(bytes).map_err(|e| not_utf8(e.utf8_error()))
}

/// `bytes` as text: validated 32 bytes at a time where the processor can
/// (simdutf8, ten times faster than std on source text, which is nearly all
/// ASCII); std says where the first bad byte is.
fn utf8(bytes: &[u8]) -> Result<&str, String> {
    simdutf8::basic::from_utf8(bytes).or_else(|_| std::str::from_utf8(bytes).map_err(not_utf8))
}

fn not_utf8(e: std::str::Utf8Error) -> String {
    let at = e.valid_up_to();
    format!("file is not valid UTF-8 (invalid byte at offset {at}); it was not analysed")
}

fn read_error(e: std::io::Error) -> String {
    format!("could not read file: {e}")
}

/// A file open for reading, and what its handle says of it.
struct Opened {
    file: std::fs::File,
    meta: std::fs::Metadata,
}

fn open(path: &std::path::Path) -> Result<Opened, String> {
    let file = std::fs::File::open(path).map_err(read_error)?;
    let meta = file.metadata().map_err(read_error)?;
    Ok(Opened { file, meta })
}

/// The bytes of an open file, into `bytes` (cleared first), or why it was
/// not analysed.
fn read_opened(opened: Opened, bytes: &mut Vec<u8>) -> Result<(), String> {
    use std::io::Read;
    let Opened { mut file, meta } = opened;
    bytes.clear();
    let limit = MAX_FILE_BYTES / (1024 * 1024);
    let len = meta.len();
    if len > MAX_FILE_BYTES {
        // One decimal and the bytes: a whole number of MiB would say a file
        // of 32.5 MiB is 32 MiB, over a limit of 32 MiB.
        let mib = len as f64 / (1024.0 * 1024.0);
        return Err(format!(
            "file is {mib:.1} MiB ({len} bytes), over the {limit} MiB limit; it was not analysed"
        ));
    }
    let want = usize::try_from(len).unwrap_or(0) + 1;
    if bytes.capacity() < want {
        // A fresh buffer: growing the old one would copy all of it.
        *bytes = Vec::with_capacity(want);
    }
    if meta.is_file() {
        // The size the file had when opened, usually in one read: no second
        // read to see the end (a run reads thousands of files).
        (&mut file)
            .take(len)
            .read_to_end(bytes)
            .map_err(read_error)?;
    } else {
        // A pipe or a device: no size; `take` keeps it within the bound.
        (&mut file)
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(bytes)
            .map_err(read_error)?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(format!(
                "file goes on past the {limit} MiB limit (a pipe or a device, read up to the limit); \
                 it was not analysed"
            ));
        }
    }
    Ok(())
}

/// Parse one file's text and extract its facts.
///
/// A file that may nest deeper than the parser's bounds is not parsed. The
/// fast path's SIMD skim reads the file first ([`prefilter::skim_for_parse`]):
/// it bounds what `lex::nesting` finds, and finds the doc comments of items,
/// which are blanked before the parse (the walker reads no `#[doc]`; the
/// suppression comments are read from the file as written). Where the skim
/// cannot tell, counts of bytes settle most files (`lex::surely_within`),
/// and `lex::nesting` the others, saying how deep a file nests.
pub fn parse_and_extract(
    id: FileId,
    text: &str,
    vocab: &Vocabulary,
) -> Result<FileFacts, FileError> {
    extract_text(id, text, None, vocab, true)
}

/// [`parse_and_extract`] of the file as written, no doc comment blanked:
/// what the tests hold the blanking to (feature `testing`).
#[cfg(feature = "testing")]
#[doc(hidden)]
pub fn parse_and_extract_as_written(
    id: FileId,
    text: &str,
    vocab: &Vocabulary,
) -> Result<FileFacts, FileError> {
    extract_text(id, text, None, vocab, false)
}

/// [`parse_and_extract`] of `text` parsed as `reduced` (`text` with the
/// bodies that hold nothing blanked, same offsets and lines), when given:
/// the facts quote `text`, and its suppression comments are all read.
fn extract_text(
    id: FileId,
    text: &str,
    reduced: Option<&str>,
    vocab: &Vocabulary,
    leave_out_docs: bool,
) -> Result<FileFacts, FileError> {
    let conv = SpanConv { file: id };
    let base = reduced.unwrap_or(text);
    let skimmed = prefilter::skim_for_parse(&parseable_text(base), vocab);
    let nesting = if skimmed.is_some() || lex::surely_within(base, MAX_NESTING, MAX_CHAIN) {
        lex::Nesting::default()
    } else {
        lex::nesting(base)
    };
    let too_deep = if nesting.brackets > MAX_NESTING {
        Some(format!(
            "file nests brackets {} levels deep, more than the {MAX_NESTING} backend-lint parses",
            nesting.brackets
        ))
    } else if nesting.chain > MAX_CHAIN {
        Some(format!(
            "file has {} {} in one expression, more than the {MAX_CHAIN} backend-lint parses",
            nesting.chain, nesting.chain_kind
        ))
    } else {
        None
    };
    if let Some(why) = too_deep {
        return Err(FileError {
            file: id,
            message: format!("{why}; it was not analysed"),
            span: None,
        });
    }
    let without_docs = skimmed.flatten().filter(|_| leave_out_docs);
    let parsed_text = without_docs.as_deref().unwrap_or(base);
    let parsed = crate::syntax::parse::parse_file_with(parsed_text, |input| {
        extract::extract(input, conv, text, parsed_text, vocab)
    });
    let result = match parsed {
        Ok(mut facts) => {
            facts.directives = comments::scan(id, text);
            Ok(facts)
        }
        Err(e) => Err(FileError {
            file: id,
            message: format!("could not parse file: {}", explain_parse_error(&e)),
            span: Some(conv.span(e.span())).filter(|s| s.end > s.start || s.start > 0),
        }),
    };
    // Spans are byte offsets now; free proc-macro2's per-thread source map,
    // which otherwise grows with every file parsed on this thread.
    proc_macro2::extra::invalidate_current_thread_spans();
    result
}

#[cfg(test)]
mod tests {
    use super::{Words, names_word};

    #[test]
    fn words_are_found_as_names_word_finds_each() {
        let words: Vec<String> = ["w1", "w10", "w100", "reg", "r", "x_1"]
            .iter()
            .map(|w| w.to_string())
            .collect();
        let matcher = Words::new(&words);
        for text in [
            "w1(r)",
            "w10",
            "aw10 w100x",
            "w1000 w10_",
            "xw1 w1",
            "fn f() { w100(r) }",
            "regs",
            "x_1",
            "x_10",
            "",
            "w",
            "reg_w1",
            "w10w1",
            "(w10)",
        ] {
            let each = words.iter().any(|w| names_word(text, w));
            assert_eq!(matcher.named_in(text), each, "{text}");
        }
        assert!(!Words::new(&[]).named_in("anything"));
    }

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
