//! `cargo metadata` with dependencies, kept between runs (issue 29's cost):
//! on a workspace whose manifests, lockfile and cargo configuration did not
//! change, a second run asks cargo nothing. Resolving a graph of 500
//! packages costs cargo about 0.4 s of CPU and 125 MB; the rest of a cached
//! run on such a workspace costs a fifth of that.
//!
//! An entry is stored beside the summaries, in `<cache>/metadata-v1/` (with
//! their guarantees: this user's, written whole, never through a link;
//! [`BOUND`] entries of a few MB each: a few workspaces), under a key
//! naming what the command was (this tool's version, the cargo and
//! toolchain run, the folder, `--manifest-path`, the host filter, the
//! `CARGO_*` environment), and holds what cargo's answer rests on, each
//! file with a hash of its bytes, or as absent:
//! - the manifests of the workspace's packages and of the path dependencies
//!   inside the checkout (those out of it are never read: their packages are
//!   skipped anyway, and a change there that changes the graph needs a new
//!   `Cargo.lock`), the workspace's root manifest and `Cargo.lock`;
//! - `.cargo/config.toml` and `.cargo/config` in every folder from the
//!   workspace up, and in `$CARGO_HOME`;
//! - the folders a glob of `[workspace] members` lists (a package added
//!   there is a new member);
//! - and that each dependency's manifest is still where cargo unpacked it.
//!
//! Any difference, and cargo is asked again.

use std::path::{Path, PathBuf};

use cargo_metadata::Metadata;
use serde::{Deserialize, Serialize};

use super::summary_cache::{SummaryCache, fnv1a, tool};

/// How many answers are kept (an answer is 2.7 MB for candle's 500 packages).
pub const BOUND: usize = 16;

/// The store, in the cache folder `dir` (`--cache-dir`) or the user's.
pub fn open(dir: Option<&Path>) -> Option<SummaryCache> {
    SummaryCache::open_in(dir, "metadata-v1", BOUND).ok()
}

/// The format of an entry; a change makes every older entry missing.
const FORMAT: u32 = 1;

#[derive(Serialize, Deserialize)]
struct Entry {
    format: u32,
    tool: String,
    key: String,
    /// Each file (or folder listing) the answer rests on, with a hash of
    /// its bytes, `None` when it did not exist.
    inputs: Vec<(PathBuf, Option<u64>)>,
    /// The manifests of the dependencies cargo read: they must still exist.
    unpacked: Vec<PathBuf>,
    metadata: Metadata,
}

/// What names an entry: everything about the command but the files.
pub(super) fn key(
    cargo: &super::discover::TrustedCargo,
    base: &Path,
    manifest_path: Option<&Path>,
    host_only: bool,
) -> String {
    let mut env: Vec<(String, String)> = std::env::vars()
        .filter(|(k, _)| k.starts_with("CARGO") || k == "RUSTUP_TOOLCHAIN")
        .collect();
    env.sort();
    let abs = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    format!(
        "metadata {} {:?} {:?} {:?} {:?} {host_only} {env:?}",
        tool(),
        cargo.path,
        cargo.toolchain,
        abs(base),
        manifest_path.map(abs),
    )
}

/// The stored answer under `key`, if every file it rests on is as it was.
pub(super) fn load(cache: &SummaryCache, key: &str) -> Option<Metadata> {
    let entry: Entry = cache.read(key)?;
    if entry.format != FORMAT || entry.tool != tool() || entry.key != key {
        return None;
    }
    let same = (entry.inputs.iter()).all(|(path, hash)| fingerprint(path) == *hash);
    let unpacked = entry.unpacked.iter().all(|m| m.is_file());
    (same && unpacked).then_some(entry.metadata)
}

/// Keep cargo's answer under `key`, with what it rests on.
pub(super) fn store(cache: &SummaryCache, key: &str, meta: &Metadata, checkout: &[PathBuf]) {
    let inside = |p: &Path| checkout.iter().any(|root| p.starts_with(root));
    let root = meta.workspace_root.as_std_path();
    let mut files: Vec<PathBuf> = vec![root.join("Cargo.toml"), root.join("Cargo.lock")];
    let mut unpacked = Vec::new();
    for p in &meta.packages {
        let manifest = p.manifest_path.as_std_path().to_path_buf();
        match p.source {
            None if inside(&manifest) => files.push(manifest),
            None => {}
            Some(_) => unpacked.push(manifest),
        }
    }
    for dir in root.ancestors() {
        files.push(dir.join(".cargo/config.toml"));
        files.push(dir.join(".cargo/config"));
    }
    if let Some(home) = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::home_dir().map(|h| h.join(".cargo")))
    {
        files.push(home.join("config.toml"));
        files.push(home.join("config"));
    }
    files.extend(member_glob_folders(root));
    files.sort();
    files.dedup();
    let inputs = files
        .into_iter()
        .map(|f| {
            let hash = fingerprint(&f);
            (f, hash)
        })
        .collect();
    let entry = Entry {
        format: FORMAT,
        tool: tool(),
        key: key.to_string(),
        inputs,
        unpacked,
        metadata: meta.clone(),
    };
    // A lost entry is computed again: nothing to report.
    if cache.write(key, &entry).is_ok() {
        cache.evict(BOUND);
    }
}

/// A hash of a file's bytes, or of a folder's sorted entry names; `None`
/// when there is neither.
fn fingerprint(path: &Path) -> Option<u64> {
    let meta = std::fs::metadata(path).ok()?;
    if meta.is_dir() {
        let mut names: Vec<String> = std::fs::read_dir(path)
            .ok()?
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        return Some(fnv1a(names.join("\n").as_bytes()) ^ 0x5bd1_e995);
    }
    Some(fnv1a(&std::fs::read(path).ok()?))
}

/// The folders holding a glob of the root manifest's `[workspace] members`
/// (`crates/*` lists `crates`).
fn member_glob_folders(root: &Path) -> Vec<PathBuf> {
    let Ok(text) = std::fs::read_to_string(root.join("Cargo.toml")) else {
        return Vec::new();
    };
    let Ok(table) = text.parse::<toml::Table>() else {
        return Vec::new();
    };
    let members = (table.get("workspace"))
        .and_then(|w| w.get("members"))
        .and_then(|m| m.as_array());
    (members.into_iter().flatten())
        .filter_map(|m| m.as_str())
        .filter(|m| m.contains(['*', '?', '[']))
        .map(|m| {
            let fixed: Vec<&str> = (m.split('/'))
                .take_while(|part| !part.contains(['*', '?', '[']))
                .collect();
            root.join(fixed.join("/"))
        })
        .collect()
}
