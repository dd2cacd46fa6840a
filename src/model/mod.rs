//! The data every layer shares, importing nothing of the crate: spans and
//! source files, diagnostics, the facts the per-file pass extracts, `cfg`
//! predicates, lint ids and levels, and how text from the checkout is shown.

pub mod cfg;
pub mod diagnostic;
pub mod facts;
pub mod fix;
pub mod lint_id;
pub mod source;
pub mod text;
pub mod typo;

/// Every `.rs` file under these folders of this repository, with its text:
/// for the unit tests that hold a reading of Rust to another on real code.
#[cfg(test)]
pub(crate) fn repository_sources(folders: &[&str]) -> Vec<(std::path::PathBuf, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs: Vec<_> = folders.iter().map(|f| root.join(f)).collect();
    let mut out = Vec::new();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir)
            .expect("a folder of the repository")
            .flatten()
        {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs")
                && let Ok(text) = std::fs::read_to_string(&path)
            {
                out.push((path, text));
            }
        }
    }
    out
}
