//! Runs the two passes over a set of files.

use std::path::PathBuf;
use std::sync::Arc;

use rayon::prelude::*;

use crate::analysis::facts::FileFacts;
use crate::analysis::{CrateFacts, extract};
use crate::config::{Config, Level, Vocabulary};
use crate::diagnostic::{Diagnostic, FileError};
use crate::lex;
use crate::lints::{Check, LINTS, Lint};
use crate::prefilter;
use crate::source::{FileId, SourceFile, SourceMap, SpanConv};
use crate::suppression;

/// Larger files are reported as not analysed rather than parsed: no
/// hand-written source is this big, and generated code has no registrations.
pub const MAX_FILE_BYTES: u64 = 32 * 1024 * 1024;

/// Deeper files are reported as not analysed. No real code comes near; the
/// bound keeps even a debug build well inside [`STACK_BYTES`].
pub const MAX_NESTING: usize = 2_000;

/// Longer chains that syn parses by recursion without brackets (`else if`,
/// `a = b = ..`, `****x`, `|x| |y| ..`, `fn() -> fn() -> ..`, method chains)
/// are reported as not analysed. Each overflowed 256 MiB of stack somewhere
/// between 73k and 450k links; no real code comes near this bound.
pub const MAX_CHAIN: usize = 2_000;

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
    pub sources: SourceMap,
    /// Sorted by file, position and lint.
    pub diagnostics: Vec<Diagnostic>,
    pub errors: Vec<FileError>,
    /// Files that could not be analysed but that no target of their package
    /// compiles (not a target, and no `mod` of the package leads to them):
    /// dead code, reported without failing the run.
    pub skipped: Vec<FileError>,
}

/// Analyse `inputs` with `lints` (normally [`LINTS`]).
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
    let pool = rayon::ThreadPoolBuilder::new()
        .stack_size(STACK_BYTES)
        .thread_name(|i| format!("backend-lint-{i}"))
        .build()
        .ok();
    // One file named twice (`check . src/lib.rs`, `./a.rs` and `a.rs`) is read once.
    let identities: Vec<(FileIdentity, u64)> = on_big_stack(pool.as_ref(), || {
        inputs
            .par_iter()
            .map(|i| FileIdentity::of(&i.path))
            .collect()
    });
    let mut seen = std::collections::HashSet::new();
    let mut sized: Vec<(Input, u64)> = inputs
        .into_iter()
        .zip(identities)
        .filter_map(|(input, (identity, len))| seen.insert(identity).then_some((input, len)))
        .collect();
    sized.sort_by(|(a, _), (b, _)| a.display.cmp(&b.display).then(a.path.cmp(&b.path)));
    let (inputs, sizes): (Vec<Input>, Vec<u64>) = sized.into_iter().unzip();
    let per_file = per_file_pass(&inputs, &sizes, pool.as_ref(), progress);

    let mut outcome = Outcome::default();
    let mut facts: Vec<(FileId, usize, FileFacts)> = Vec::new();
    for ((source, result), input) in per_file.into_iter().zip(&inputs) {
        let id = outcome.sources.add(source);
        match result {
            Ok(f) => facts.push((id, input.krate, f)),
            Err(e) => outcome.errors.push(e),
        }
    }

    skip_uncompiled(&mut outcome, &facts, &inputs);

    let mut krates: Vec<usize> = facts.iter().map(|(_, k, _)| *k).collect();
    krates.sort_unstable();
    krates.dedup();
    let sources = &outcome.sources;
    let all_facts = &facts;
    let inputs = &inputs;
    // The crate pass too runs on the big stacks: name resolution and the
    // lints recurse over what the files declare.
    let diagnostics: Vec<Diagnostic> = on_big_stack(pool.as_ref(), || {
        krates
            .par_iter()
            .flat_map_iter(|&krate| {
                let Some(config) = inputs.iter().find(|i| i.krate == krate).map(|i| &i.config)
                else {
                    return Vec::new();
                };
                let files: Vec<_> = all_facts
                    .iter()
                    .filter(|(_, k, _)| *k == krate)
                    .map(|(id, _, f)| (*id, sources.get(*id).path.as_path(), f))
                    .collect();
                // Every finding points into a file with a fact it can be
                // reported at: a crate without one has nothing to check.
                if !files.iter().any(|(_, _, f)| f.may_be_reported()) {
                    return Vec::new();
                }
                let directives: Vec<_> = files
                    .iter()
                    .map(|(id, _, f)| (sources.get(*id), *id, &f.directives))
                    .collect();
                let crate_facts = CrateFacts::new(files, &config.vocab);
                let mut out = Vec::new();
                for lint in lints {
                    if config.level(lint.name) == Level::Allow {
                        continue;
                    }
                    if let Check::Crate(check) = lint.check {
                        check(&crate_facts, &mut out);
                    }
                }
                apply_levels(&mut out, config);
                suppression::apply(&mut out, &directives, config);
                out
            })
            .collect()
    });
    outcome.diagnostics = diagnostics;
    // Facts of thousands of files are freed on the pool, not one by one here.
    on_big_stack(pool.as_ref(), || facts.into_par_iter().for_each(drop));
    let sources = &outcome.sources;
    outcome.diagnostics.sort_by(|a, b| {
        let key = |d: &Diagnostic| {
            (
                sources.get(d.span.file).display.clone(),
                d.span.start,
                d.span.end,
                d.lint,
            )
        };
        key(a).cmp(&key(b))
    });
    outcome.diagnostics.dedup();
    outcome
}

/// A file's source, and its facts or why it was not analysed.
type FileOutcome = (SourceFile, Result<FileFacts, FileError>);

/// How far the per-file pass has taken a file.
enum Stage {
    /// Read in full or for its structure, or found unreadable.
    Done(Box<FileOutcome>),
    /// Lexed: it tokenizes and cannot yield a finding; its structure not
    /// read (yet).
    Lexed,
}

/// The per-file pass: the outcome of each file, in the order of `inputs`.
///
/// A file that cannot yield a finding gives the crate pass only structure
/// (constants, `use`s, `mod`s), which matters only to a crate the crate pass
/// runs on: one with a file a finding can point at, or with a file that
/// could not be analysed (whether a `mod` leads to it decides if it fails
/// the run). So the pass goes in two stages, each on the thread pool:
/// 1. every file is read; those that cannot yield a finding are only lexed
///    ([`prefilter::quiet`] and [`prefilter::lexes`], or
///    [`prefilter::lexes_quietly`]), so a file that does not tokenize is
///    reported in both modes; the others are parsed in full;
/// 2. in the crates that need it, the files only lexed are read again for
///    their structure.
///
/// Within a stage the largest files go first, one task each: the run does
/// not end on one thread parsing a big file the others could have shared.
fn per_file_pass(
    inputs: &[Input],
    sizes: &[u64],
    pool: Option<&rayon::ThreadPool>,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<FileOutcome> {
    let n = inputs.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(sizes[i]));
    let run = |todo: Vec<usize>, f: &(dyn Fn(usize) -> Stage + Sync)| -> Vec<(usize, Stage)> {
        on_big_stack(pool, || {
            todo.par_iter()
                .with_max_len(1)
                .map(|&i| (i, f(i)))
                .collect()
        })
    };
    let mut first = run(order.clone(), &|i| {
        let stage = first_stage(file_id(i), &inputs[i]);
        progress(n);
        stage
    });
    first.sort_unstable_by_key(|(i, _)| *i);
    let mut stages: Vec<Stage> = first.into_iter().map(|(_, stage)| stage).collect();
    // Crates whose files the crate pass (or the check of bad files) reads.
    let needed: std::collections::HashSet<usize> = stages
        .iter()
        .zip(inputs)
        .filter(|(s, _)| match s {
            Stage::Done(done) => done.1.as_ref().map_or(true, FileFacts::may_be_reported),
            Stage::Lexed => false,
        })
        .map(|(_, input)| input.krate)
        .collect();
    let todo: Vec<usize> = order
        .into_iter()
        .filter(|&i| matches!(stages[i], Stage::Lexed) && needed.contains(&inputs[i].krate))
        .collect();
    for (i, stage) in run(todo, &|i| {
        Stage::Done(Box::new(analyze_file(file_id(i), &inputs[i])))
    }) {
        stages[i] = stage;
    }
    stages
        .into_iter()
        .zip(inputs)
        .map(|(stage, input)| match stage {
            Stage::Done(done) => *done,
            Stage::Lexed => (
                SourceFile::new(input.path.clone(), input.display.clone(), "".into()),
                Ok(FileFacts::default()),
            ),
        })
        .collect()
}

/// Stage 1 of the per-file pass for one file.
fn first_stage(id: FileId, input: &Input) -> Stage {
    if !input.prefilter {
        return Stage::Done(Box::new(analyze_file(id, input)));
    }
    thread_local! {
        // Most files are only lexed: read into one buffer per thread, and
        // copied out only when kept.
        static BUFFER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BUFFER.with(|buffer| {
        let buffer = &mut *buffer.borrow_mut();
        let stage = match read_into(&input.path, buffer) {
            Ok(text) => first_stage_of(id, input, text),
            Err(message) => Stage::Done(Box::new(unreadable(id, input, message))),
        };
        // A big file's buffer is not kept for the rest of the run.
        if buffer.capacity() > 1 << 20 {
            *buffer = Vec::new();
        }
        stage
    })
}

/// [`first_stage`] of a file's text.
fn first_stage_of(id: FileId, input: &Input, text: &str) -> Stage {
    let vocab = &input.config.vocab;
    let quiet = prefilter::quiet(text, vocab);
    let lexed = if quiet {
        prefilter::lexes(text, vocab)
    } else {
        prefilter::lexes_quietly(text, vocab)
    };
    // A file the lexer does not read, or in which it finds what may start a
    // fact, is parsed in full (the structure reader would give up too).
    if !lexed {
        return Stage::Done(Box::new(parsed(id, input, text.to_owned())));
    }
    // Suppression comments are reported at, so they need the crate pass
    // (a quiet file has none).
    let directives = (!quiet).then(|| suppression::scan(id, text));
    if directives.is_none_or(|d| d.directives.is_empty() && d.malformed.is_empty()) {
        Stage::Lexed
    } else {
        Stage::Done(Box::new(analyze_text(id, input, text.to_owned())))
    }
}

/// What makes two paths one file: the device and inode on Unix (one `stat`,
/// where canonicalizing reads every link of the path), the canonical path
/// elsewhere, the path itself when neither can be had.
#[derive(PartialEq, Eq, Hash)]
enum FileIdentity {
    #[cfg(unix)]
    Inode(u64, u64),
    Path(PathBuf),
}

impl FileIdentity {
    /// The identity of a file, and its size (0 when unknown).
    fn of(path: &std::path::Path) -> (FileIdentity, u64) {
        let meta = std::fs::metadata(path);
        let len = meta.as_ref().map_or(0, |m| m.len());
        #[cfg(unix)]
        if let Ok(m) = &meta {
            use std::os::unix::fs::MetadataExt;
            return (FileIdentity::Inode(m.dev(), m.ino()), len);
        }
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        (FileIdentity::Path(path), len)
    }
}

/// Move the errors of files no target compiles to `skipped`: a file that
/// does not parse fails nothing when no `mod` and no target leads to it
/// (a leftover, an unfinished file), in a cargo package. Files outside any
/// package are always taken to be compiled.
fn skip_uncompiled(outcome: &mut Outcome, facts: &[(FileId, usize, FileFacts)], inputs: &[Input]) {
    if outcome.errors.is_empty() {
        return;
    }
    let sources = &outcome.sources;
    let (skipped, errors): (Vec<FileError>, Vec<FileError>) = std::mem::take(&mut outcome.errors)
        .into_iter()
        .partition(|e| {
            let input = &inputs[e.file as usize];
            if input.target || crate::discover::package_root_of(&input.path).is_none() {
                return false;
            }
            if crate::analysis::modules::is_layout_root(&input.path) {
                return false;
            }
            let package: Vec<(&std::path::Path, &FileFacts)> = facts
                .iter()
                .filter(|(_, k, _)| *k == input.krate)
                .map(|(id, _, f)| (sources.get(*id).path.as_path(), f))
                .collect();
            !crate::analysis::modules::is_declared(&input.path, &package)
        });
    outcome.errors = errors;
    outcome.skipped = skipped;
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

/// The per-file pass of one file: read, then [`analyze_text`]. Never panics
/// on bad input.
fn analyze_file(id: FileId, input: &Input) -> FileOutcome {
    match read_text(&input.path) {
        Ok(text) => analyze_text(id, input, text),
        Err(message) => unreadable(id, input, message),
    }
}

/// A file that could not be read, and why.
fn unreadable(id: FileId, input: &Input, message: String) -> FileOutcome {
    let error = FileError {
        file: id,
        message,
        span: None,
    };
    let source = SourceFile::new(input.path.clone(), input.display.clone(), "".into());
    (source, Err(error))
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
        Some(facts) => kept(input, text, Ok(facts)),
        None => parsed(id, input, text),
    }
}

/// A file parsed in full.
fn parsed(id: FileId, input: &Input, text: String) -> FileOutcome {
    let result = parse_and_extract(id, &text, &input.config.vocab);
    kept(input, text, result)
}

/// The outcome of a file, with its text if a finding may need it.
fn kept(input: &Input, text: String, result: Result<FileFacts, FileError>) -> FileOutcome {
    // Only a file with something a finding can point at needs its text later
    // (excerpts, line numbers, fingerprints): most files of a crate have none,
    // and holding every text made memory grow with the size of the run.
    let text: Arc<str> = match &result {
        Ok(facts) if !facts.may_be_reported() => Arc::from(""),
        _ => Arc::from(text),
    };
    (
        SourceFile::new(input.path.clone(), input.display.clone(), text),
        result,
    )
}

/// A file's text, or why it was not analysed. The file is opened once (its
/// size from the open handle) and read into a buffer of that size.
fn read_text(path: &std::path::Path) -> Result<String, String> {
    let mut bytes = Vec::new();
    read_bytes(path, &mut bytes)?;
    String::from_utf8(bytes).map_err(|e| not_utf8(e.utf8_error()))
}

/// [`read_text`] into `bytes` (cleared first), checked to be UTF-8.
fn read_into<'b>(path: &std::path::Path, bytes: &'b mut Vec<u8>) -> Result<&'b str, String> {
    read_bytes(path, bytes)?;
    std::str::from_utf8(bytes).map_err(not_utf8)
}

fn not_utf8(e: std::str::Utf8Error) -> String {
    let at = e.valid_up_to();
    format!("file is not valid UTF-8 (invalid byte at offset {at}); it was not analysed")
}

/// A file's bytes, into `bytes` (cleared first), or why it was not analysed.
fn read_bytes(path: &std::path::Path, bytes: &mut Vec<u8>) -> Result<(), String> {
    use std::io::Read;
    bytes.clear();
    let read_error = |e: std::io::Error| format!("could not read file: {e}");
    let mut file = std::fs::File::open(path).map_err(read_error)?;
    let too_big = |len: u64| {
        format!(
            "file is {} MiB, larger than the {} MiB backend-lint reads; it was not analysed",
            len / (1024 * 1024),
            MAX_FILE_BYTES / (1024 * 1024)
        )
    };
    let meta = file.metadata().map_err(read_error)?;
    let len = meta.len();
    if len > MAX_FILE_BYTES {
        return Err(too_big(len));
    }
    bytes.reserve(usize::try_from(len).unwrap_or(0) + 1);
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
            return Err(too_big(bytes.len() as u64));
        }
    }
    Ok(())
}

/// Parse one file's text and extract its facts.
pub fn parse_and_extract(
    id: FileId,
    text: &str,
    vocab: &Vocabulary,
) -> Result<FileFacts, FileError> {
    let conv = SpanConv { file: id };
    let nesting = if lex::surely_within(text, MAX_NESTING, MAX_CHAIN) {
        lex::Nesting::default()
    } else {
        lex::nesting(text)
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
    let result = match crate::source::parse_file(text) {
        Ok(file) => {
            let mut facts = extract::extract(&file, conv, text, vocab);
            drop(file);
            facts.directives = suppression::scan(id, text);
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

/// Give findings the severity of their lint's level; drop allowed ones.
pub fn apply_levels(diagnostics: &mut Vec<Diagnostic>, config: &Config) {
    diagnostics.retain_mut(|d| match config.level(d.lint).severity() {
        Some(severity) => {
            d.severity = severity;
            true
        }
        None => false,
    });
}

/// All lints, for callers that do not filter.
pub fn all_lints() -> &'static [&'static Lint] {
    LINTS
}
