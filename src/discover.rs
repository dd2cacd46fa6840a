//! Which files a run reads, and which of them form one crate.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::engine::Input;
use crate::source::display_path;

/// A path given on the command line that could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathError {
    pub path: PathBuf,
    pub message: String,
}

/// Expand `paths` into the Rust files to analyse.
///
/// Directories are walked with the `ignore` crate: `.gitignore` (also outside
/// a git checkout), `.ignore`, hidden entries and `target/` are skipped, and
/// only `.rs` files are kept. A file named explicitly is always analysed.
pub fn collect(paths: &[PathBuf], base: &Path) -> (Vec<Input>, Vec<PathError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        let meta = match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) => {
                errors.push(PathError {
                    path: path.clone(),
                    message: format!("cannot read `{}`: {e}", path.display()),
                });
                continue;
            }
        };
        if meta.is_file() {
            files.push(path.clone());
            continue;
        }
        let walker = ignore::WalkBuilder::new(path)
            .hidden(true)
            .require_git(false)
            .filter_entry(|e| {
                !(e.file_type().is_some_and(|t| t.is_dir()) && e.file_name() == "target")
            })
            .build();
        for entry in walker {
            match entry {
                Ok(e)
                    if e.file_type().is_some_and(|t| t.is_file())
                        && e.path().extension().is_some_and(|x| x == "rs") =>
                {
                    files.push(e.into_path())
                }
                Ok(_) => {}
                Err(e) => errors.push(PathError {
                    path: path.clone(),
                    message: format!("while walking `{}`: {e}", path.display()),
                }),
            }
        }
    }
    let mut packages = PackageFinder::default();
    let inputs = files
        .into_iter()
        .map(|path| {
            let krate = packages.krate_of(&path);
            Input {
                display: display_path(&path, base),
                path,
                krate,
            }
        })
        .collect();
    (inputs, errors)
}

/// Groups files by the nearest directory holding a `Cargo.toml`: duplicate
/// registrations are looked for within one package, not across packages.
#[derive(Default)]
struct PackageFinder {
    by_dir: HashMap<PathBuf, usize>,
    roots: HashMap<Option<PathBuf>, usize>,
}

impl PackageFinder {
    fn krate_of(&mut self, file: &Path) -> usize {
        let abs = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
        let dir = abs.parent().map(Path::to_path_buf).unwrap_or_default();
        if let Some(&k) = self.by_dir.get(&dir) {
            return k;
        }
        let root = dir
            .ancestors()
            .find(|d| d.join("Cargo.toml").is_file())
            .map(Path::to_path_buf);
        let next = self.roots.len();
        let k = *self.roots.entry(root).or_insert(next);
        self.by_dir.insert(dir, k);
        k
    }
}
