//! Finding the configuration of a folder, and keeping it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::error::ConfigError;
use super::resolved::{Config, Overrides};

/// File names of a configuration of its own, in order of precedence.
pub const CONFIG_FILES: &[&str] = &["backend-lint.toml", ".backend-lint.toml"];

/// Finds and caches the configuration of folders.
#[derive(Debug, Default)]
pub struct Loader {
    overrides: Overrides,
    cache: Mutex<HashMap<PathBuf, Result<Arc<Config>, ConfigError>>>,
    explicit: Option<Arc<Config>>,
}

impl Loader {
    /// `--config PATH` is read right away: a broken one stops the run.
    pub fn new(overrides: Overrides) -> Result<Loader, ConfigError> {
        let explicit = match &overrides.config {
            Some(path) => Some(Arc::new(
                Config::load(path, &overrides)?.ok_or_else(|| ConfigError {
                    path: path.clone(),
                    text: String::new(),
                    span: None,
                    message: "this Cargo.toml has no [package.metadata.backend-lint] or [workspace.metadata.backend-lint] table".into(),
                })?,
            )),
            None => None,
        };
        Ok(Loader {
            overrides,
            cache: Mutex::default(),
            explicit,
        })
    }

    /// The built-in configuration for every folder, whatever files say:
    /// what applies once `init` has written its file, all commented out.
    pub fn builtin() -> Loader {
        Loader {
            explicit: Some(Arc::new(Config::default())),
            ..Loader::default()
        }
    }

    /// The configuration for code in `dir` (a package root or a file's folder).
    pub fn for_dir(&self, dir: &Path) -> Result<Arc<Config>, ConfigError> {
        if let Some(c) = &self.explicit {
            return Ok(c.clone());
        }
        let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        let mut visited = Vec::new();
        let mut found = None;
        for d in dir.ancestors() {
            if let Some(hit) = self.cache.lock().expect("not poisoned").get(d) {
                found = Some(hit.clone());
                break;
            }
            visited.push(d.to_path_buf());
            if let Some(c) = self.in_folder(d) {
                found = Some(c.map(Arc::new));
                break;
            }
        }
        let result = found.unwrap_or_else(|| Ok(Arc::new(Config::builtin(&self.overrides))));
        let mut cache = self.cache.lock().expect("not poisoned");
        for d in visited {
            cache.insert(d, result.clone());
        }
        result
    }

    /// The configuration a folder itself holds, if any.
    fn in_folder(&self, dir: &Path) -> Option<Result<Config, ConfigError>> {
        let names = CONFIG_FILES.iter().copied().chain(["Cargo.toml"]);
        let path = names.map(|name| dir.join(name)).find(|p| p.is_file())?;
        if let Some(target) = linked_out(&path, dir) {
            return Some(Err(ConfigError {
                message: format!(
                    "it is a link to `{}`, outside its folder: not read, so that no file \
                     the analysed code points at is shown (use --config to name a file)",
                    target.display()
                ),
                path,
                text: String::new(),
                span: None,
            }));
        }
        Config::load(&path, &self.overrides).transpose()
    }
}

/// Where `path` leads when it is a link out of `dir`: a configuration found
/// in the analysed tree may be the checkout's, and a link to a file elsewhere
/// (`backend-lint.toml -> ~/.cargo/credentials.toml`) would have that file's
/// lines shown in a parse error.
fn linked_out(path: &Path, dir: &Path) -> Option<PathBuf> {
    if !path.symlink_metadata().ok()?.is_symlink() {
        return None;
    }
    let target = path.canonicalize().ok()?;
    let dir = dir.canonicalize().ok()?;
    (!target.starts_with(dir)).then_some(target)
}
