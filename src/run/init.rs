//! What `backend-lint init` reads and writes: where the configuration goes,
//! what is there already, and the file itself.

use std::path::{Path, PathBuf};

use crate::config::{CONFIG_FILES, Config, Origin, Overrides};
use crate::run::discover;

/// The file `init` writes.
pub const FILE: &str = "backend-lint.toml";

/// Where the configuration of `path` (a file or folder) goes: the root of
/// the workspace of its package (the first folder up from the package
/// whose `Cargo.toml` has `[workspace]`), else the package's folder, else
/// the folder itself. One file there applies to every member.
pub fn root(path: &Path) -> PathBuf {
    let dir = match path.is_dir() {
        true => path.to_path_buf(),
        false => path.parent().map(Path::to_path_buf).unwrap_or_default(),
    };
    let dir = std::path::absolute(&dir).unwrap_or(dir);
    let Some(package) = discover::nearest_package(&dir) else {
        return dir;
    };
    (package.ancestors())
        .find(|d| has_workspace(d))
        .map_or(package.clone(), Path::to_path_buf)
}

/// The folder's `Cargo.toml` has a `[workspace]` table.
fn has_workspace(dir: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(dir.join("Cargo.toml")) else {
        return false;
    };
    toml::from_str::<toml::Table>(&text).is_ok_and(|t| t.contains_key("workspace"))
}

/// The configurations `dir` holds already, as `backend-lint config` names
/// their origin: `backend-lint.toml`, `.backend-lint.toml` (a link too,
/// wherever it leads), a `Cargo.toml` with our table (or one that cannot be
/// read).
pub fn existing(dir: &Path) -> Vec<String> {
    let mut found: Vec<String> = CONFIG_FILES
        .iter()
        .filter(|name| dir.join(name).symlink_metadata().is_ok())
        .map(|name| format!("`{name}`"))
        .collect();
    let manifest = dir.join("Cargo.toml");
    if manifest.is_file() {
        match Config::load(&manifest, &Overrides::default()) {
            Ok(None) => {}
            Ok(Some(c)) => found.push(
                match c.origin {
                    Origin::WorkspaceMetadata(_) => {
                        "`Cargo.toml` [workspace.metadata.backend-lint]"
                    }
                    _ => "`Cargo.toml` [package.metadata.backend-lint]",
                }
                .to_string(),
            ),
            Err(_) => found.push("`Cargo.toml` (a backend-lint table that cannot be read)".into()),
        }
    }
    found
}

/// Write the file at `dir`, replacing it whole; a link there is replaced
/// itself, never written through ([`crate::run::atomic::replace`]).
pub fn write(dir: &Path, text: &str) -> std::io::Result<PathBuf> {
    let path = dir.join(FILE);
    crate::run::atomic::replace(&path, text.as_bytes())?;
    Ok(path)
}
