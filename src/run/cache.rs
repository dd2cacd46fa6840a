//! What the per-file pass found in each file, kept from one run to the
//! next of the same files (the language server's: each keystroke runs its
//! package again, where only the edited file changed).
//!
//! An entry answers only for the very input it was made for: the same
//! path, the same place in the run (its [`FileId`], which the facts' spans
//! carry), the same configuration (the same `Arc`, which the entry holds,
//! so its address is not reused), the same mode, and the same text: a
//! hash of the text given (`Input::text`), or the file's size, change time
//! and inode as `stat` gives them. What learning reads again (with the
//! learned vocabulary, another configuration) is kept apart from the first
//! reading, one entry per configuration: a file read in several rounds of
//! learning is parsed once for each round in all, not at every keystroke.
//! Learning's searches are kept too: whether a file, as it was, names one
//! of the words a round looked for ([`FileCache::text_naming`]), so that a
//! keystroke does not read and search every file of its package again.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use crate::config::Config;
use crate::model::source::FileId;
use crate::run::{FileOutcome, Input, Survey, Verdict};

/// Which step of the per-file pass an entry stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Step {
    /// Stage 1: read and lexed ([`super::survey`]).
    Survey,
    /// Stage 2: parsed in full.
    Parse,
    /// Stages 2 and 3: read for the structure and the comments.
    Analyze,
    /// Learning: parsed again with the names learned (`run::learn`), or
    /// declined.
    Learn,
    /// Learning: parsed whole for a learned function's calls
    /// (`run::reparse_for_learned_names`).
    Whole,
}

/// Facts of files from earlier runs (see the module's docs).
#[derive(Default)]
pub struct FileCache {
    /// One entry per file and step; for learning's steps one per
    /// configuration too (each round reads with its own: [`LEARNING_KEPT`]).
    entries: Mutex<HashMap<(PathBuf, Step), Vec<Entry>>>,
    /// How many steps were taken from here: what the tests watch.
    hits: std::sync::atomic::AtomicUsize,
    /// The configurations with learned names made in earlier runs, so that
    /// a run learning what the one before learned uses the same `Arc`,
    /// which the entries of the learning's steps are keyed by.
    learned: Mutex<Vec<LearnedConfig>>,
    /// Whether each file names one of a round's words, by path.
    naming: Mutex<HashMap<PathBuf, Vec<Naming>>>,
    /// How many files learning read and searched (not known here).
    searches: std::sync::atomic::AtomicUsize,
    /// Files read for their structure and comments (not taken from here).
    structure_reads: std::sync::atomic::AtomicUsize,
    /// Steps made, not taken from here (each a parse or a read).
    made: std::sync::atomic::AtomicUsize,
    /// The stamp of each input, taken once in a run ([`Self::begin_run`]):
    /// a run asks for one per step and round, and each was a `stat` (or a
    /// hash of a buffer).
    stamps: Mutex<HashMap<PathBuf, Option<Stamp>>>,
    /// The semantic model of each crate of the runs, by its first file
    /// ([`FileCache::model`]).
    models: Mutex<HashMap<PathBuf, KeptModel>>,
    /// The module tree of each crate of the runs, by its first file
    /// ([`FileCache::module_tree`]).
    trees: Mutex<HashMap<PathBuf, KeptTree>>,
}

/// A crate's module tree and the files it was built from.
struct KeptTree {
    files: Vec<(PathBuf, Arc<crate::model::facts::FileFacts>)>,
    tree: crate::analysis::modules::ModuleTree,
}

/// A crate's semantic model (built, or not yet) and its files as it read
/// them.
struct KeptModel {
    paths: Vec<PathBuf>,
    stamps: Vec<Option<Stamp>>,
    lazy: Arc<crate::semantic::Lazy>,
}

/// A search of learning: the words (sorted), the file as it was, and
/// whether it named one.
struct Naming {
    words: Vec<String>,
    stamp: Stamp,
    named: bool,
}

/// How many searches are kept per file: the rounds of the learning as it
/// is, and a few of what it was before an edit changed what is learned.
const NAMINGS_KEPT: usize = 16;

/// A configuration with learned names, and what it was made of.
struct LearnedConfig {
    base: Arc<Config>,
    functions: Vec<crate::config::LearnedFunction>,
    switch_fields: Vec<String>,
    switches: Vec<String>,
    config: Arc<Config>,
}

/// How many readings of one file as it is, each with a configuration of
/// the learning, are kept: a file read again in several rounds (a wrapper
/// of a wrapper) is read once per round, with that round's configuration,
/// and a single entry made each round take the place of the one before,
/// so that every keystroke parsed it again in each round. Rounds are at
/// most [`super::learn::MAX_LEARNING_ROUNDS`]; a few more keep the
/// readings of what was learned before an edit that is undone.
const LEARNING_KEPT: usize = 16;

/// How many learned configurations are kept (a few per package that learns).
const LEARNED_KEPT: usize = 256;

struct Entry {
    key: Key,
    value: Value,
}

/// What an entry must match besides the path and the step.
struct Key {
    /// `None` for the survey, which no id is in.
    id: Option<FileId>,
    config: Arc<Config>,
    prefilter: bool,
    stamp: Stamp,
}

impl Key {
    /// Whether two keys read the file the same way: at the same place in
    /// the run, with the same configuration and mode (the text aside).
    fn same_reading(&self, other: &Key) -> bool {
        self.id == other.id
            && Arc::ptr_eq(&self.config, &other.config)
            && self.prefilter == other.prefilter
    }
}

#[derive(Clone, PartialEq, Eq)]
enum Stamp {
    Text(u64),
    #[cfg(unix)]
    Disk {
        len: u64,
        modified: (i64, i64),
        changed: (i64, i64),
        inode: (u64, u64),
    },
}

/// (An outcome boxed: most entries are surveys of files only lexed.)
enum Value {
    Survey(Survey),
    Outcome(Box<FileOutcome>),
    /// A step that may decline a file (learning's).
    Maybe(Option<Box<FileOutcome>>),
}

impl FileCache {
    /// How many steps of the per-file pass were taken from the cache.
    #[cfg(feature = "testing")]
    pub fn hits(&self) -> usize {
        self.hits.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// How many files learning's searches read, not knowing the answer.
    #[cfg(feature = "testing")]
    pub fn searches(&self) -> usize {
        self.searches.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// How many files were read for their structure and comments
    /// (`Step::Analyze`), not taken from the cache.
    #[cfg(feature = "testing")]
    pub fn structure_reads(&self) -> usize {
        self.structure_reads
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// How many steps after the survey were made, not taken from the
    /// cache: each a file parsed or read for its structure.
    #[cfg(feature = "testing")]
    pub fn made(&self) -> usize {
        self.made.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// A run starts (`run::analyze_cached`): each file is stamped once in
    /// it, when first asked for. (Runs with one cache are one at a time.)
    pub(super) fn begin_run(&self) {
        self.stamps
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// The stamp of `input` in this run.
    fn stamp(&self, input: &Input) -> Option<Stamp> {
        let kept = self.stamps.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(stamp) = kept.get(&input.path) {
            return stamp.clone();
        }
        drop(kept);
        let stamp = stamp(input);
        let mut kept = self.stamps.lock().unwrap_or_else(|e| e.into_inner());
        kept.insert(input.path.clone(), stamp.clone());
        stamp
    }

    fn key(&self, id: Option<FileId>, input: &Input) -> Option<Key> {
        Some(Key {
            id,
            config: input.config.clone(),
            prefilter: input.prefilter,
            stamp: self.stamp(input)?,
        })
    }

    /// The value kept for `key`, if the entry is for that very key.
    fn get(&self, step: Step, input: &Input, key: &Key) -> Option<Value> {
        // A panic in a run (the server catches it) leaves whole entries.
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let entry = (entries.get(&(input.path.clone(), step))?)
            .iter()
            .find(|entry| entry.key.same_reading(key) && entry.key.stamp == key.stamp)?;
        let value = Some(match &entry.value {
            Value::Survey(v) => Value::Survey(v.clone()),
            Value::Outcome(o) => Value::Outcome(o.clone()),
            Value::Maybe(o) => Value::Maybe(o.clone()),
        })?;
        self.hits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Some(value)
    }

    /// Keep `value` under `key`, made before the file was read: a file
    /// changed while it was read is read again next time.
    fn put(&self, step: Step, input: &Input, key: Key, value: Value) {
        if input.skip.is_some() {
            return;
        }
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let kept = entries.entry((input.path.clone(), step)).or_default();
        let learning = matches!(step, Step::Learn | Step::Whole);
        // The entries of the file as it was are stale, and so is the one
        // read the same way; the other configurations' stay (learning's).
        kept.retain(|e| learning && e.key.stamp == key.stamp && !e.key.same_reading(&key));
        if kept.len() >= LEARNING_KEPT {
            kept.remove(0);
        }
        kept.push(Entry { key, value });
    }

    /// Stage 1 of the input, made by `make` unless kept. An unreadable
    /// file is not kept: it is read again next time.
    pub(super) fn survey(&self, input: &Input, make: impl FnOnce() -> Survey) -> Survey {
        let Some(key) = self.key(None, input) else {
            return make();
        };
        if let Some(Value::Survey(s)) = self.get(Step::Survey, input, &key) {
            return s;
        }
        let survey = make();
        if !matches!(survey.verdict, Verdict::Unreadable(_)) {
            self.put(Step::Survey, input, key, Value::Survey(survey.clone()));
        }
        survey
    }

    /// The outcome of `step` for the input, made by `make` unless kept.
    pub(super) fn outcome(
        &self,
        step: Step,
        id: FileId,
        input: &Input,
        make: impl FnOnce() -> FileOutcome,
    ) -> FileOutcome {
        let Some(key) = self.key(Some(id), input) else {
            return make();
        };
        if let Some(Value::Outcome(o)) = self.get(step, input, &key) {
            return *o;
        }
        if step == Step::Analyze {
            (self.structure_reads).fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        self.made.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let outcome = make();
        self.put(step, input, key, Value::Outcome(Box::new(outcome.clone())));
        outcome
    }

    /// The outcome of a learning `step`, which may decline the file
    /// (`None`), made by `make` unless kept.
    pub(super) fn maybe_outcome(
        &self,
        step: Step,
        id: FileId,
        input: &Input,
        make: impl FnOnce() -> Option<FileOutcome>,
    ) -> Option<FileOutcome> {
        let Some(key) = self.key(Some(id), input) else {
            return make();
        };
        if let Some(Value::Maybe(o)) = self.get(step, input, &key) {
            return o.map(|o| *o);
        }
        self.made.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let outcome = make();
        let kept = outcome.clone().map(Box::new);
        self.put(step, input, key, Value::Maybe(kept));
        outcome
    }

    /// The input's text (`read`) if it names one of `words`, as `search`
    /// says: a file that named none of the same words as it is now (the
    /// same stamp) is neither read nor searched again.
    pub(super) fn text_naming(
        &self,
        input: &Input,
        words: &[String],
        read: impl FnOnce() -> Option<String>,
        search: impl FnOnce(&str) -> bool,
    ) -> Option<String> {
        let stamp = (input.skip.is_none()).then(|| self.stamp(input)).flatten();
        let Some(stamp) = stamp else {
            return read().filter(|text| search(text));
        };
        let same_words = |kept: &[String]| {
            kept.len() == words.len() && words.iter().all(|w| kept.binary_search(w).is_ok())
        };
        {
            let naming = self.naming.lock().unwrap_or_else(|e| e.into_inner());
            let known = (naming.get(&input.path).into_iter().flatten())
                .find(|n| n.stamp == stamp && same_words(&n.words));
            if let Some(known) = known {
                self.hits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                return if known.named { read() } else { None };
            }
        }
        self.searches
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let text = read()?;
        let named = search(&text);
        let mut sorted = words.to_vec();
        sorted.sort_unstable();
        let mut naming = self.naming.lock().unwrap_or_else(|e| e.into_inner());
        let kept = naming.entry(input.path.clone()).or_default();
        kept.retain(|n| !same_words(&n.words));
        if kept.len() >= NAMINGS_KEPT {
            kept.remove(0);
        }
        kept.push(Naming {
            words: sorted,
            stamp,
            named,
        });
        named.then_some(text)
    }

    /// `base` with the names `learned` teaches: the configuration made for
    /// the same base and names before, else `make`'s.
    pub(super) fn learned_config(
        &self,
        base: &Arc<Config>,
        learned: &crate::analysis::infer::Learned,
        make: impl FnOnce() -> Arc<Config>,
    ) -> Arc<Config> {
        let mut kept = self.learned.lock().unwrap_or_else(|e| e.into_inner());
        let same = |c: &LearnedConfig| {
            Arc::ptr_eq(&c.base, base)
                && c.functions == learned.functions
                && c.switch_fields == learned.switch_fields
                && c.switches == learned.switches
        };
        if let Some(c) = kept.iter().find(|c| same(c)) {
            return c.config.clone();
        }
        let config = make();
        if kept.len() >= LEARNED_KEPT {
            kept.remove(0);
        }
        kept.push(LearnedConfig {
            base: base.clone(),
            functions: learned.functions.clone(),
            switch_fields: learned.switch_fields.clone(),
            switches: learned.switches.clone(),
            config: config.clone(),
        });
        config
    }

    /// The semantic model of the crate of `paths` (in the run's order) in
    /// this run, with the texts `given` in place of their files': the one
    /// of the run before when no file changed; when only given texts did
    /// and their items did not (an edit inside a fn body), the one before
    /// with their texts and item trees ([`model::lazy_patched`]); else one
    /// built anew. Each built on the first question, as in `check`.
    pub(super) fn model(
        &self,
        package_root: Option<Arc<std::path::Path>>,
        paths: Vec<PathBuf>,
        given: super::model::Given,
    ) -> Arc<crate::semantic::Lazy> {
        use super::model;
        let stamps: Vec<Option<Stamp>> = {
            let kept = self.stamps.lock().unwrap_or_else(|e| e.into_inner());
            (paths.iter())
                .map(|p| kept.get(p).cloned().flatten())
                .collect()
        };
        let Some(key) = paths.first().cloned() else {
            return Arc::new(model::lazy_given(package_root, paths, given));
        };
        let mut models = self.models.lock().unwrap_or_else(|e| e.into_inner());
        let lazy = match models.remove(&key) {
            Some(mut kept) if kept.paths == paths => {
                let changed: Vec<&PathBuf> = (paths.iter().zip(&stamps).zip(&kept.stamps))
                    .filter(|((_, now), before)| now != before)
                    .map(|((path, _), _)| path)
                    .collect();
                let texts: Option<Vec<(PathBuf, Arc<str>)>> = (changed.iter())
                    .map(|p| Some(((*p).clone(), given.get(*p)?.clone())))
                    .collect();
                match texts {
                    _ if changed.is_empty() => kept.lazy,
                    Some(texts) => {
                        let old = Arc::get_mut(&mut kept.lazy)
                            .and_then(crate::semantic::Lazy::take_model);
                        Arc::new(match old {
                            Some(old) => model::lazy_patched(old, texts, package_root),
                            None => model::lazy_given(package_root, paths.clone(), given),
                        })
                    }
                    None => Arc::new(model::lazy_given(package_root, paths.clone(), given)),
                }
            }
            _ => Arc::new(model::lazy_given(package_root, paths.clone(), given)),
        };
        models.insert(
            key,
            KeptModel {
                paths,
                stamps,
                lazy: lazy.clone(),
            },
        );
        lazy
    }

    /// The module tree kept for the crate of `files` (path and facts, in
    /// the run's order), taken out: when its files are the same, and each
    /// one's facts are those it was built from or give the same tree
    /// ([`ModuleTree::inputs_of`](crate::analysis::modules::ModuleTree::inputs_of):
    /// an edit inside a fn body, a function added). Given back after the
    /// crate pass ([`Self::keep_module_tree`]).
    pub(super) fn module_tree(
        &self,
        files: &[(&std::path::Path, &Arc<crate::model::facts::FileFacts>)],
    ) -> Option<crate::analysis::modules::ModuleTree> {
        use crate::analysis::modules::ModuleTree;
        let key = files.first()?.0;
        let kept = (self.trees.lock().unwrap_or_else(|e| e.into_inner())).remove(key)?;
        let same = kept.files.len() == files.len()
            && (kept.files.iter().zip(files)).all(|((path, before), (now_path, now))| {
                path == now_path
                    && (Arc::ptr_eq(before, now)
                        || ModuleTree::inputs_of(before) == ModuleTree::inputs_of(now))
            });
        same.then_some(kept.tree)
    }

    /// Keep the module tree of the crate of `files` for the next run.
    pub(super) fn keep_module_tree(
        &self,
        files: Vec<(PathBuf, Arc<crate::model::facts::FileFacts>)>,
        tree: crate::analysis::modules::ModuleTree,
    ) {
        let Some(key) = files.first().map(|(p, _)| p.clone()) else {
            return;
        };
        let mut trees = self.trees.lock().unwrap_or_else(|e| e.into_inner());
        trees.insert(key, KeptTree { files, tree });
    }

    /// Forget the semantic models and module trees of the crates whose
    /// first file is not in `keep` (the language server keeps those of the
    /// packages of open documents).
    pub fn forget_models(&self, keep: impl Fn(&std::path::Path) -> bool) {
        let mut models = self.models.lock().unwrap_or_else(|e| e.into_inner());
        models.retain(|path, _| keep(path));
        let mut trees = self.trees.lock().unwrap_or_else(|e| e.into_inner());
        trees.retain(|path, _| keep(path));
    }

    /// Forget the files not in `keep` (a file deleted, a package gone).
    pub fn retain(&self, keep: impl Fn(&std::path::Path) -> bool) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.retain(|(path, _), _| keep(path));
        let mut naming = self.naming.lock().unwrap_or_else(|e| e.into_inner());
        naming.retain(|path, _| keep(path));
        drop((entries, naming));
        self.forget_models(keep);
    }
}

/// What identifies the text of an input: a hash of the text given, or
/// what `stat` says of the file (`None` when it cannot be read: no entry).
fn stamp(input: &Input) -> Option<Stamp> {
    if let Some(text) = &input.text {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        text.hash(&mut h);
        return Some(Stamp::Text(h.finish()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let meta = std::fs::metadata(&input.path).ok()?;
        Some(Stamp::Disk {
            len: meta.len(),
            modified: (meta.mtime(), meta.mtime_nsec()),
            changed: (meta.ctime(), meta.ctime_nsec()),
            inode: (meta.dev(), meta.ino()),
        })
    }
    #[cfg(not(unix))]
    {
        // No stamp fine enough elsewhere: nothing on disk is kept.
        None
    }
}
