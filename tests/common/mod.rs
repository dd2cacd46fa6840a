//! Helpers shared by the integration tests.
#![allow(dead_code)] // each test binary uses its own part

use std::path::{Path, PathBuf};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Write `contents` to `dir/name`, creating folders; returns the path.
pub fn write(dir: &Path, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, contents).unwrap();
    path
}

/// Compare with `tests/snapshots/<name>`; `UPDATE_EXPECT=1` rewrites it.
/// The version and this checkout's path are replaced by placeholders.
pub fn snapshot(name: &str, actual: &str) {
    let path = root().join("tests/snapshots").join(name);
    let actual = actual
        .replace(env!("CARGO_PKG_VERSION"), "[VERSION]")
        .replace(&root().display().to_string(), "[ROOT]");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("missing {}: run UPDATE_EXPECT=1 cargo test", path.display()));
    assert_eq!(
        expected,
        actual,
        "{} differs; run UPDATE_EXPECT=1 cargo test and review",
        path.display()
    );
}
