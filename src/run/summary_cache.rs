//! What a dependency teaches, kept between runs (issue 29): a registry
//! package's source never changes under its name, version and checksum, nor
//! a git checkout's under its commit, so what is learned from it is a pure
//! function of those, of its own dependencies' (`Dependency::key`), of the
//! configuration it was learned with and of this tool's version. A second
//! run whose dependencies did not change reads no dependency source.
//!
//! One JSON file an entry, in `<cache>/deps-v1/` (`$XDG_CACHE_HOME/backend-lint`,
//! else `~/.cache/backend-lint`, or `--cache-dir`), named by a hash of its
//! key and holding the key whole: an entry whose key, tool version or
//! format differs (a foreign or corrupt file, a hash collision) is taken as
//! missing and written again. Entries are written whole (as `atomic.rs`
//! writes: a temporary file renamed over the old one, but not synced), so
//! concurrent runs read the old entry or the new one; two runs writing one
//! entry write the same bytes. The folder is used only when it is a real folder (no link) owned
//! by this user and writable by no one else, and an entry only when it is a
//! regular file owned by this user: another user's planted entry is never
//! believed. Past [`MAX_ENTRIES`], the entries used least recently (a hit
//! refreshes an entry's modification time) are removed.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::analysis::infer::{Learned, LearnedSingleton};
use crate::config::{CallReceiver, ConstantKey, LearnedFunction};
use crate::model::facts::{Fails, Inferred, InferredKind};
use crate::model::source::Span;

/// The format of an entry; a change makes every older entry missing.
const FORMAT: u32 = 3;

/// How many entries the folder keeps (about 1 KiB each): a few workspaces'
/// dependency graphs.
pub const MAX_ENTRIES: usize = 4096;

/// What a file of a dependency taught is not a file of the run: its
/// inferred names point at no file.
pub const NO_FILE: u32 = u32::MAX;

/// What one dependency teaches the packages that call it: the learned
/// functions that surely reject a second key, with the switches of their
/// types, and each one's item path and place.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub functions: Vec<Function>,
    pub switch_fields: Vec<String>,
    pub switches: Vec<String>,
    pub rejecting: Vec<String>,
    pub apis: Vec<Api>,
    /// The singletons it defines (issue 29).
    #[serde(default)]
    pub singletons: Vec<Singleton>,
}

/// A [`LearnedSingleton`], as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Singleton {
    pub name: String,
    pub self_type: Option<String>,
    pub method: bool,
    pub arity: usize,
    /// `panics` or `returns_err`.
    pub fails: String,
    pub state: String,
    pub why: String,
    pub place: String,
    pub depth: u32,
    /// [`LearnedSingleton::guarded`].
    #[serde(default)]
    pub guarded: Option<String>,
    /// [`LearnedSingleton::of_trait`].
    #[serde(default)]
    pub of_trait: bool,
    /// [`LearnedSingleton::krates`].
    #[serde(default)]
    pub krates: Vec<String>,
}

impl Singleton {
    fn of(s: &LearnedSingleton) -> Singleton {
        Singleton {
            name: s.name.clone(),
            self_type: s.self_type.clone(),
            method: s.method,
            arity: s.arity,
            fails: match s.fails {
                Fails::Panics => "panics",
                Fails::ReturnsErr => "returns_err",
            }
            .to_string(),
            state: s.state.clone(),
            why: s.why.clone(),
            place: s.place.clone(),
            depth: s.depth,
            guarded: s.guarded.clone(),
            of_trait: s.of_trait,
            krates: s.krates.clone(),
        }
    }

    fn learned(&self) -> Option<LearnedSingleton> {
        Some(LearnedSingleton {
            name: self.name.clone(),
            self_type: self.self_type.clone(),
            method: self.method,
            arity: self.arity,
            fails: match self.fails.as_str() {
                "panics" => Fails::Panics,
                "returns_err" => Fails::ReturnsErr,
                _ => return None,
            },
            state: self.state.clone(),
            why: self.why.clone(),
            place: self.place.clone(),
            via: None,
            depth: self.depth,
            // The package's own, which it exports (a dependent imports it).
            imported: false,
            // Only what a dependent can name is kept.
            public: true,
            file: None,
            guarded: self.guarded.clone(),
            maybe: false,
            of_trait: self.of_trait,
            krates: self.krates.clone(),
            reexported: false,
        })
    }
}

/// A [`LearnedFunction`], as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Function {
    pub name: String,
    pub key: Vec<usize>,
    /// `written`, `method`, `method_self` or `free`.
    pub receiver: String,
    pub registry: Option<usize>,
    pub arity: usize,
    pub switch: Option<usize>,
    pub constants: Vec<(String, Vec<String>)>,
    pub self_type: Option<String>,
    pub returns_self: bool,
    #[serde(default)]
    pub key_field: Option<String>,
    #[serde(default)]
    pub wraps: Option<String>,
}

/// A learned API of a dependency, for `backend-lint config` and for the
/// findings resting on it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Api {
    pub name: String,
    /// `crate::module::Type::name`.
    pub item_path: String,
    /// `name-version/src/file.rs:line`.
    pub place: String,
    pub line: u32,
    /// Why it counts, as the findings say it.
    pub why: String,
    pub key: Vec<usize>,
}

impl Summary {
    /// What `learned` (a dependency's own [`Learned::exported`]) teaches,
    /// with the item path and place of each name (`place(file)`: the
    /// display and module path of a file of the run).
    pub fn of(learned: &Learned, place: impl Fn(u32) -> Option<(String, String)>) -> Summary {
        let functions = (learned.functions.iter()).map(Function::of).collect();
        let apis = (learned.inferred.iter())
            .filter(|i| i.kind == InferredKind::Registration)
            .filter_map(|i| {
                let (display, module) = place(i.span.file)?;
                let self_type = (learned.functions.iter())
                    .find(|f| f.name == i.name)
                    .and_then(|f| f.self_type.clone());
                let item_path = match self_type {
                    Some(ty) => format!("{module}::{ty}::{}", i.name),
                    None => format!("{module}::{}", i.name),
                };
                Some(Api {
                    name: i.name.clone(),
                    item_path,
                    place: format!("{display}:{}", i.line),
                    line: i.line,
                    why: i.why.clone(),
                    key: i.key.clone(),
                })
            })
            .collect();
        Summary {
            functions,
            switch_fields: learned.switch_fields.clone(),
            switches: learned.switches.clone(),
            rejecting: learned.rejecting.clone(),
            apis,
            singletons: learned.singletons.iter().map(Singleton::of).collect(),
        }
    }

    /// The learning this summary stands for; its names point at no file of
    /// the run ([`NO_FILE`]).
    pub fn learned(&self) -> Learned {
        Learned {
            functions: self
                .functions
                .iter()
                .filter_map(Function::learned)
                .collect(),
            switch_fields: self.switch_fields.clone(),
            switches: self.switches.clone(),
            inferred: (self.apis.iter())
                .map(|a| Inferred {
                    kind: InferredKind::Registration,
                    name: a.name.clone(),
                    span: Span {
                        file: NO_FILE,
                        start: 0,
                        end: 0,
                    },
                    line: a.line,
                    why: a.why.clone(),
                    key: a.key.clone(),
                })
                .collect(),
            rejecting: self.rejecting.clone(),
            singletons: (self.singletons.iter())
                .filter_map(Singleton::learned)
                .collect(),
            index: Default::default(),
        }
    }
}

impl Function {
    fn of(f: &LearnedFunction) -> Function {
        let (receiver, registry) = match f.receiver {
            CallReceiver::Written => ("written", None),
            CallReceiver::Method { self_only: false } => ("method", None),
            CallReceiver::Method { self_only: true } => ("method_self", None),
            CallReceiver::Free { registry } => ("free", registry),
            CallReceiver::Returned => ("returned", None),
        };
        Function {
            name: f.name.clone(),
            key: f.key.clone(),
            receiver: receiver.to_string(),
            registry,
            arity: f.arity,
            switch: f.switch,
            constants: (f.constants.iter())
                .map(|c| (c.callee.clone(), c.key.clone()))
                .collect(),
            self_type: f.self_type.clone(),
            returns_self: f.returns_self,
            key_field: f.key_field.clone(),
            wraps: f.wraps.clone(),
        }
    }

    fn learned(&self) -> Option<LearnedFunction> {
        let receiver = match self.receiver.as_str() {
            "written" => CallReceiver::Written,
            "method" => CallReceiver::Method { self_only: false },
            "method_self" => CallReceiver::Method { self_only: true },
            "free" => CallReceiver::Free {
                registry: self.registry,
            },
            "returned" => CallReceiver::Returned,
            _ => return None,
        };
        Some(LearnedFunction {
            name: self.name.clone(),
            key: self.key.clone(),
            receiver,
            arity: self.arity,
            switch: self.switch,
            constants: (self.constants.iter())
                .map(|(callee, key)| ConstantKey {
                    callee: callee.clone(),
                    key: key.clone(),
                })
                .collect(),
            self_type: self.self_type.clone(),
            returns_self: self.returns_self,
            key_field: self.key_field.clone(),
            wraps: self.wraps.clone(),
        })
    }
}

/// One file of the cache.
#[derive(Serialize, Deserialize)]
struct Entry {
    format: u32,
    tool: String,
    key: String,
    summary: Summary,
}

/// The cache folder of a run.
#[derive(Debug, Clone)]
pub struct SummaryCache {
    dir: PathBuf,
    /// How many entries it keeps.
    bound: usize,
}

impl SummaryCache {
    /// The cache in `dir` (`--cache-dir`), else in the user's cache folder
    /// (XDG); `None` when there is none, or it is not safe to use (see the
    /// module's doc), with why.
    pub fn open(dir: Option<&Path>) -> Result<SummaryCache, String> {
        Self::open_in(dir, "deps-v1", MAX_ENTRIES)
    }

    /// A store of another kind beside it, in the same cache folder, in its
    /// subfolder `folder`, keeping `bound` entries.
    pub fn open_in(dir: Option<&Path>, folder: &str, bound: usize) -> Result<SummaryCache, String> {
        let base = match dir {
            Some(d) => d.to_path_buf(),
            None => {
                default_dir().ok_or("no cache folder: neither XDG_CACHE_HOME nor HOME is set")?
            }
        };
        let dir = base.join(folder);
        create_private(&dir).map_err(|e| format!("cannot use `{}`: {e}", dir.display()))?;
        Ok(SummaryCache { dir, bound })
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir
            .join(format!("{:016x}.json", fnv1a(key.as_bytes())))
    }

    /// The summary stored under `key`, if an entry of this user, tool
    /// version and format holds it.
    pub fn load(&self, key: &str) -> Option<Summary> {
        let entry: Entry = self.read(key)?;
        if entry.format != FORMAT || entry.tool != tool() || entry.key != key {
            return None;
        }
        Some(entry.summary)
    }

    /// The file of the entry named by `key`, parsed, when it is a regular
    /// file of this user (of at most 64 MiB); a hit refreshes its time.
    /// The caller checks that the entry holds `key` whole.
    pub(super) fn read<T: serde::de::DeserializeOwned>(&self, key: &str) -> Option<T> {
        let path = self.path(key);
        let meta = std::fs::symlink_metadata(&path).ok()?;
        if !meta.is_file() || !owned_by_me(&meta) || meta.len() > 64 << 20 {
            return None;
        }
        let text = std::fs::read(&path).ok()?;
        let entry = serde_json::from_slice(&text).ok()?;
        // Used now: the last to be evicted.
        if let Ok(f) = std::fs::File::options().append(true).open(&path) {
            let _ = f.set_modified(std::time::SystemTime::now());
        }
        Some(entry)
    }

    /// Write the entry named by `key`: whole or not at all, as `atomic.rs`
    /// writes (a temporary file renamed over the entry, never written
    /// through a link), but not synced: a lost entry is computed again, a
    /// torn one does not parse and is missing; syncing each of a
    /// workspace's 700 entries took seconds.
    pub(super) fn write<T: Serialize>(&self, key: &str, entry: &T) -> std::io::Result<()> {
        let bytes = serde_json::to_vec(entry).map_err(std::io::Error::other)?;
        let mut temp = tempfile::Builder::new()
            .prefix(".entry.")
            .suffix(".tmp")
            .tempfile_in(&self.dir)?;
        std::io::Write::write_all(&mut temp, &bytes)?;
        temp.persist(self.path(key)).map_err(|e| e.error)?;
        Ok(())
    }

    /// Store `summary` under `key`, then evict past the bound
    /// ([`MAX_ENTRIES`]).
    pub fn store(&self, entries: &[(&str, &Summary)]) -> std::io::Result<()> {
        for (key, summary) in entries {
            let entry = Entry {
                format: FORMAT,
                tool: tool(),
                key: key.to_string(),
                summary: (*summary).clone(),
            };
            self.write(key, &entry)?;
        }
        if !entries.is_empty() {
            self.evict(self.bound);
        }
        Ok(())
    }

    /// Remove the entries used least recently beyond `keep`.
    pub fn evict(&self, keep: usize) {
        let Ok(read) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let mut entries: Vec<(std::time::SystemTime, PathBuf)> = read
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".json"))
            .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
            .collect();
        if entries.len() <= keep {
            return;
        }
        entries.sort();
        let excess = entries.len() - keep;
        for (_, path) in entries.into_iter().take(excess) {
            // Another run may have removed it first.
            let _ = std::fs::remove_file(path);
        }
    }
}

/// This build: a new version may learn otherwise, and so may a new build
/// of one version (a checkout installed again): the executable's size and
/// modification time tell builds apart without reading it.
pub(super) fn tool() -> String {
    static TOOL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TOOL.get_or_init(|| {
        let build = (std::env::current_exe().and_then(std::fs::metadata))
            .map(|m| {
                let modified = (m.modified().ok())
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_nanos());
                format!(" {}-{modified}", m.len())
            })
            .unwrap_or_default();
        format!("backend-lint {}{build}", env!("CARGO_PKG_VERSION"))
    })
    .clone()
}

/// `$XDG_CACHE_HOME/backend-lint`, else `~/.cache/backend-lint` (a relative
/// `XDG_CACHE_HOME` is ignored, as the XDG rules say).
fn default_dir() -> Option<PathBuf> {
    let xdg = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute());
    let base = xdg.or_else(|| std::env::home_dir().map(|h| h.join(".cache")))?;
    Some(base.join("backend-lint"))
}

/// Make `dir` (and its parents) if needed, private to this user; refuse it
/// when it is a link, another user's, or writable by others.
fn create_private(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        let _ = std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir);
    }
    #[cfg(not(unix))]
    let _ = std::fs::create_dir_all(dir);
    let meta = std::fs::symlink_metadata(dir)?;
    if !meta.is_dir() {
        return Err(std::io::Error::other("it is not a folder (a link?)"));
    }
    if !owned_by_me(&meta) {
        return Err(std::io::Error::other("it belongs to another user"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if meta.permissions().mode() & 0o022 != 0 {
            return Err(std::io::Error::other("others may write in it"));
        }
    }
    Ok(())
}

fn owned_by_me(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // SAFETY-free: the process's effective user, as the files it makes.
        meta.uid() == effective_uid()
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        true
    }
}

/// The owner of what this process creates: a file made and looked at once.
#[cfg(unix)]
fn effective_uid() -> u32 {
    use std::os::unix::fs::MetadataExt;
    static UID: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *UID.get_or_init(|| {
        let probe = tempfile::tempfile();
        probe
            .and_then(|f| f.metadata())
            .map_or(u32::MAX, |m| m.uid())
    })
}

/// FNV-1a, 64 bits: a name for an entry that stays the same across builds
/// (std's hasher promises no such thing). The key is checked whole.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(name: &str) -> Summary {
        Summary {
            rejecting: vec![name.to_string()],
            ..Summary::default()
        }
    }

    #[test]
    fn an_entry_is_found_under_its_key_only() {
        let dir = tempfile::tempdir().unwrap();
        let cache = SummaryCache::open(Some(dir.path())).unwrap();
        cache.store(&[("a 1", &summary("f"))]).unwrap();
        assert_eq!(cache.load("a 1"), Some(summary("f")));
        assert_eq!(cache.load("a 2"), None);
    }

    #[test]
    fn a_corrupt_or_foreign_entry_is_missing_and_rewritten() {
        let dir = tempfile::tempdir().unwrap();
        let cache = SummaryCache::open(Some(dir.path())).unwrap();
        let path = cache.path("k");
        std::fs::write(&path, b"{ not json").unwrap();
        assert_eq!(cache.load("k"), None);
        // Another key's entry under this name (a collision, a planted file).
        let other = Entry {
            format: FORMAT,
            tool: tool(),
            key: "other".into(),
            summary: summary("g"),
        };
        std::fs::write(&path, serde_json::to_vec(&other).unwrap()).unwrap();
        assert_eq!(cache.load("k"), None);
        let old_tool = Entry {
            tool: "backend-lint 0.0.0-old".into(),
            key: "k".into(),
            ..other
        };
        std::fs::write(&path, serde_json::to_vec(&old_tool).unwrap()).unwrap();
        assert_eq!(cache.load("k"), None);
        cache.store(&[("k", &summary("f"))]).unwrap();
        assert_eq!(cache.load("k"), Some(summary("f")));
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_never_read_nor_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let cache = SummaryCache::open(Some(dir.path())).unwrap();
        let elsewhere = dir.path().join("elsewhere.json");
        let entry = Entry {
            format: FORMAT,
            tool: tool(),
            key: "k".into(),
            summary: summary("f"),
        };
        std::fs::write(&elsewhere, serde_json::to_vec(&entry).unwrap()).unwrap();
        std::os::unix::fs::symlink(&elsewhere, cache.path("k")).unwrap();
        assert_eq!(cache.load("k"), None);
        cache.store(&[("k", &summary("g"))]).unwrap();
        // The link was replaced, its target left as it was.
        let target: Entry = serde_json::from_slice(&std::fs::read(&elsewhere).unwrap()).unwrap();
        assert_eq!(target.summary, summary("f"));
        assert_eq!(cache.load("k"), Some(summary("g")));
        // A cache folder that is a link is not used.
        let linked = dir.path().join("linked");
        std::fs::create_dir(dir.path().join("real")).unwrap();
        std::fs::create_dir(&linked).unwrap();
        std::os::unix::fs::symlink(dir.path().join("real"), linked.join("deps-v1")).unwrap();
        assert!(SummaryCache::open(Some(&linked)).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn a_folder_others_may_write_in_is_not_used() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let deps = dir.path().join("deps-v1");
        std::fs::create_dir(&deps).unwrap();
        std::fs::set_permissions(&deps, std::fs::Permissions::from_mode(0o777)).unwrap();
        assert!(SummaryCache::open(Some(dir.path())).is_err());
    }

    /// An entry planted by another user (root may plant one as anyone) is
    /// not believed. Where this process may not give a file away, there is
    /// nothing to check.
    #[cfg(unix)]
    #[test]
    fn an_entry_of_another_user_is_missing() {
        let dir = tempfile::tempdir().unwrap();
        let cache = SummaryCache::open(Some(dir.path())).unwrap();
        cache.store(&[("k", &summary("f"))]).unwrap();
        assert!(cache.load("k").is_some());
        let other = effective_uid().wrapping_add(4242);
        if std::os::unix::fs::chown(cache.path("k"), Some(other), None).is_ok() {
            assert_eq!(cache.load("k"), None);
        }
    }

    #[test]
    fn the_oldest_entries_go_past_the_bound() {
        let dir = tempfile::tempdir().unwrap();
        let cache = SummaryCache::open(Some(dir.path())).unwrap();
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        for n in 0..5 {
            let key = format!("k{n}");
            cache.store(&[(&key, &summary("f"))]).unwrap();
            let f = std::fs::File::options()
                .append(true)
                .open(cache.path(&key))
                .unwrap();
            f.set_modified(old + std::time::Duration::from_secs(n))
                .unwrap();
        }
        // A hit makes an old entry the newest.
        assert!(cache.load("k0").is_some());
        cache.evict(3);
        let kept: Vec<bool> = (0..5)
            .map(|n| cache.load(&format!("k{n}")).is_some())
            .collect();
        assert_eq!(kept, [true, false, false, true, true]);
    }
}
