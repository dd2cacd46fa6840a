//! A resolved configuration: where it came from, the command line's
//! levels over it, and what it answers for a file (levels, `exclude`,
//! `[per-file-ignores]`).

use std::path::{Path, PathBuf};

use super::vocab::Vocabulary;
use crate::model::lint_id::{Level, LintId, without_tool};
use crate::model::typo::closest_lint;

/// Where a configuration came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    Builtin,
    File(PathBuf),
    PackageMetadata(PathBuf),
    WorkspaceMetadata(PathBuf),
}

impl Origin {
    pub fn describe(&self) -> String {
        match self {
            Origin::Builtin => "built-in defaults (no configuration found)".into(),
            Origin::File(p) => format!("{}", p.display()),
            Origin::PackageMetadata(p) => {
                format!("{} [package.metadata.backend-lint]", p.display())
            }
            Origin::WorkspaceMetadata(p) => {
                format!("{} [workspace.metadata.backend-lint]", p.display())
            }
        }
    }

    /// The folder exclude patterns are relative to.
    fn dir(&self) -> Option<&Path> {
        match self {
            Origin::Builtin => None,
            Origin::File(p) | Origin::PackageMetadata(p) | Origin::WorkspaceMetadata(p) => {
                p.parent()
            }
        }
    }
}

/// Lint levels given on the command line, in the order given (later wins).
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// `(lint name or "warnings", level)`.
    pub levels: Vec<(String, Level)>,
    /// `--config PATH`.
    pub config: Option<PathBuf>,
    /// `--select`: only these lints run (every lint when empty).
    pub select: Vec<String>,
}

impl Overrides {
    /// Check the names given to `-A/-W/-D`: lint names (also as
    /// `backend_lint::name`) or `warnings`.
    pub fn validate(&self) -> Result<(), String> {
        for (name, _) in &self.levels {
            if name != "warnings" && LintId::from_written(name).is_none() {
                return Err(unknown_lint_message(name));
            }
        }
        for name in &self.select {
            if name.is_empty() {
                return Err("--select: a lint name is empty".into());
            }
            if LintId::from_written(name).is_none() {
                return Err(format!("--select: {}", unknown_lint_message(name)));
            }
        }
        Ok(())
    }

    /// The lints `--select` names; `None` without `--select`.
    pub(super) fn selected(&self) -> Option<Vec<LintId>> {
        (!self.select.is_empty()).then(|| {
            (self.select.iter())
                .filter_map(|n| LintId::from_written(n))
                .collect()
        })
    }
}

pub(super) fn unknown_lint_message(name: &str) -> String {
    if let Some(near) = closest_lint(without_tool(name)) {
        return format!("no lint named `{name}`: did you mean `{near}`?");
    }
    let names: Vec<&str> = LintId::names().collect();
    format!(
        "no lint named `{name}` (the lints are: {})",
        names.join(", ")
    )
}

/// The configuration that applies to one crate.
#[derive(Debug, Clone)]
pub struct Config {
    pub vocab: Vocabulary,
    /// Indexed by [`LintId::index`].
    pub(super) levels: [Level; LintId::COUNT],
    pub(super) exclude: Vec<(String, globset::GlobMatcher)>,
    pub(super) per_file_ignores: Vec<PerFileIgnore>,
    pub origin: Origin,
}

/// One entry of `[per-file-ignores]`: lints not reported in the files a
/// glob matches.
#[derive(Debug, Clone)]
pub(super) struct PerFileIgnore {
    pub(super) pattern: String,
    pub(super) glob: globset::GlobMatcher,
    /// A pattern without `/` also matches a file's name, wherever it is
    /// (ruff's `"__init__.py" = [..]`).
    pub(super) name_too: bool,
    pub(super) lints: Vec<LintId>,
}

impl Config {
    /// The level of a lint.
    pub fn level(&self, lint: LintId) -> Level {
        self.levels[lint.index()]
    }

    /// `path` relative to the configuration's folder, which `exclude` and
    /// `[per-file-ignores]` globs are written against; `None` outside it or
    /// for the built-in configuration.
    fn relative(&self, path: &Path) -> Option<PathBuf> {
        let dir = self.origin.dir()?;
        let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        abs.strip_prefix(dir).ok().map(Path::to_path_buf)
    }

    /// `path` matches an `exclude` pattern (relative to the configuration's
    /// folder), or lies in a folder that does.
    pub fn excludes(&self, path: &Path) -> bool {
        if self.exclude.is_empty() {
            return false;
        }
        let Some(rel) = self.relative(path) else {
            return false;
        };
        rel.ancestors()
            .filter(|p| !p.as_os_str().is_empty())
            .any(|p| self.exclude.iter().any(|(_, g)| g.is_match(p)))
    }

    /// Whether `[per-file-ignores]` turns `lint` off in the file `path`: a
    /// glob matches its path relative to the configuration's folder, or a
    /// folder it is in, or (a glob without `/`) its name.
    pub fn ignores(&self, path: &Path, lint: LintId) -> bool {
        let mut entries = (self.per_file_ignores.iter())
            .filter(|p| p.lints.contains(&lint))
            .peekable();
        if entries.peek().is_none() {
            return false;
        }
        let Some(rel) = self.relative(path) else {
            return false;
        };
        let name = rel.file_name().map(Path::new);
        entries.any(|p| {
            (p.name_too && name.is_some_and(|n| p.glob.is_match(n)))
                || (rel.ancestors())
                    .filter(|a| !a.as_os_str().is_empty())
                    .any(|a| p.glob.is_match(a))
        })
    }
}
