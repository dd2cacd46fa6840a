//! The layers of `src/` (docs/architecture.md): each module imports only its
//! own layer and the layers below it. A module's layer is the first folder
//! (or file) under `src/`; what it imports is every `crate::<layer>` its
//! code names, test modules and comments left out.

use std::path::{Path, PathBuf};

/// Bottom first. The fast path (`prefilter`) and the lints share a floor but
/// must not import each other: the fast path may use the analysis and the
/// syntax, never the lints or the runner.
const LAYERS: &[(&str, u8)] = &[
    ("model", 0),
    ("syntax", 1),
    ("config", 2),
    ("semantic", 3),
    ("analysis", 4),
    ("lints", 5),
    ("prefilter", 5),
    ("run", 6),
    ("report", 7),
    ("baseline", 8),
    ("server", 8),
    ("cli", 9),
];

fn rank(layer: &str) -> Option<u8> {
    LAYERS.iter().find(|(l, _)| *l == layer).map(|(_, r)| *r)
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rs_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without its comments and its `#[cfg(test)]` modules
/// (tests may reach any layer to set a case up).
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod ") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The layers `code` names as `crate::<layer>`.
fn imported(code: &str) -> Vec<String> {
    let mut out: Vec<String> = code
        .match_indices("crate::")
        .filter(|(at, _)| !code[..*at].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
        .map(|(at, m)| {
            let rest = &code[at + m.len()..];
            rest.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

#[test]
fn every_module_imports_only_its_layer_and_those_below() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rs_files(&src, &mut files);
    let mut checked = 0;
    let mut wrong = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let top = rel.iter().next().unwrap().to_string_lossy();
        let layer = top.trim_end_matches(".rs");
        // The crate root and the binaries stand above every layer; a file
        // of tests is a test module.
        if ["lib", "main", "bin"].contains(&layer) || rel.ends_with("tests.rs") {
            continue;
        }
        let own = rank(layer).unwrap_or_else(|| panic!("`{layer}` is in no layer"));
        checked += 1;
        let text = std::fs::read_to_string(file).unwrap();
        for other in imported(&code(&text)) {
            let Some(theirs) = rank(&other) else {
                wrong.push(format!(
                    "{}: `crate::{other}` is in no layer",
                    rel.display()
                ));
                continue;
            };
            let apart = (layer == "prefilter" && other == "lints")
                || (layer == "lints" && other == "prefilter");
            if other != layer && (theirs > own || (theirs == own && apart)) {
                wrong.push(format!(
                    "{} ({layer}) imports `crate::{other}`",
                    rel.display()
                ));
            }
        }
    }
    assert!(checked > 40, "only {checked} modules read");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The check above sees an import that runs up a layer.
#[test]
fn an_upward_import_is_seen() {
    let up = code("use crate::model::facts;\nfn f() { crate::run::analyze(); } // crate::cli\n");
    assert_eq!(imported(&up), ["model", "run"]);
    let tests = code("use crate::model::x;\n#[cfg(test)]\nmod tests { use crate::cli; }\n");
    assert_eq!(imported(&tests), ["model"]);
    // A grouped import names no layer: the check above reports it.
    assert_eq!(imported(&code("use crate::{run, model};\n")), [""]);
    assert_eq!(rank(""), None);
}
