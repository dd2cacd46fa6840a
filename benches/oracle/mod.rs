//! rust-analyzer as the oracle of name resolution: its SCIP index of a
//! workspace read back ([`scip`]) and compared site by site with the
//! semantic model's references ([`compare`]). Shared by
//! benches/resolution.rs and tests/resolution_oracle.rs.

#![allow(dead_code)] // each user takes a part

pub mod compare;
pub mod scip;

use std::collections::HashMap;
use std::path::Path;

/// A workspace's `index.scip`, decoded, and the texts of its documents
/// (relative path to text; a document that cannot be read is left out).
pub fn read_workspace(dir: &Path) -> Result<(scip::Index, HashMap<String, String>), String> {
    let path = dir.join("index.scip");
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let index = scip::decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let texts = index
        .documents
        .iter()
        .filter_map(|d| {
            let text = std::fs::read_to_string(dir.join(&d.relative_path)).ok()?;
            Some((d.relative_path.clone(), text))
        })
        .collect();
    Ok((index, texts))
}
