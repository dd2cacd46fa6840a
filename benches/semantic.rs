//! The semantic model on hostile shapes, in process: each shape at two or
//! three sizes, the time to build the model and to list its references, so
//! that how the cost grows shows (issue 28: 100,000 `use` globs, glob
//! cycles, 10,000 impls of one trait, deep module nesting). No assertion on
//! time: the numbers go to docs/performance.md.
//!
//! `cargo bench --bench semantic [-- NAME..]`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use backend_lint::semantic::{CrateInput, Model};

struct Shape {
    name: &'static str,
    unit: &'static str,
    sizes: &'static [usize],
    make: fn(usize) -> Vec<(String, String)>,
}

const SHAPES: &[Shape] = &[
    Shape {
        name: "use_globs",
        unit: "globs",
        sizes: &[10_000, 100_000],
        make: use_globs,
    },
    Shape {
        name: "glob_ring",
        unit: "modules",
        sizes: &[100, 300, 1_000],
        make: glob_ring,
    },
    Shape {
        name: "impls_of_one_trait",
        unit: "impls",
        sizes: &[1_000, 10_000],
        make: impls_of_one_trait,
    },
    Shape {
        name: "deep_modules",
        unit: "levels",
        sizes: &[1_000, 4_000],
        make: deep_modules,
    },
];

/// One module that glob-imports `n` modules of one function each.
fn use_globs(n: usize) -> Vec<(String, String)> {
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!("pub mod m{i} {{ pub fn f{i}() {{}} }}\n"));
    }
    text.push_str("mod user {\n");
    for i in 0..n {
        text.push_str(&format!("    use crate::m{i}::*;\n"));
    }
    text.push_str("    fn call() { f0(); }\n}\n");
    vec![("src/lib.rs".into(), text)]
}

/// `n` modules each glob-importing the next, the last the first: every
/// name reaches every module (n² entries, as in rustc).
fn glob_ring(n: usize) -> Vec<(String, String)> {
    let mut text = String::new();
    for i in 0..n {
        let next = (i + 1) % n;
        text.push_str(&format!(
            "pub mod m{i} {{ pub use super::m{next}::*; pub fn f{i}() {{}} }}\n"
        ));
    }
    text.push_str("fn call() { m0::f1(); }\n");
    vec![("src/lib.rs".into(), text)]
}

/// `n` impls of one trait and a call on a generic receiver: its targets
/// are every impl's method.
fn impls_of_one_trait(n: usize) -> Vec<(String, String)> {
    let mut text = String::from("pub trait Runtime { fn launch(&self); }\n");
    for i in 0..n {
        text.push_str(&format!(
            "pub struct R{i};\nimpl Runtime for R{i} {{ fn launch(&self) {{}} }}\n"
        ));
    }
    text.push_str("fn run<R: Runtime>(r: &R) { r.launch(); }\n");
    vec![("src/lib.rs".into(), text)]
}

/// Modules nested `n` deep, one file each (`#[path]` keeps them in one
/// folder), and a path through all of them.
fn deep_modules(n: usize) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut path = String::from("crate");
    for i in 0..n {
        let own = if i == 0 {
            "src/lib.rs".to_string()
        } else {
            format!("src/m{i}.rs")
        };
        let next = i + 1;
        let text = if next < n {
            format!("#[path = \"m{next}.rs\"]\npub mod m{next};\npub fn f{i}() {{}}\n")
        } else {
            "pub fn last() {}\n".to_string()
        };
        if next < n {
            path.push_str(&format!("::m{next}"));
        }
        files.push((own, text));
    }
    files[0]
        .1
        .push_str(&format!("fn call() {{ {path}::last(); }}\n"));
    files
}

fn main() {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    for shape in SHAPES {
        if !filters.is_empty() && !filters.iter().any(|f| shape.name.contains(f.as_str())) {
            continue;
        }
        for &n in shape.sizes {
            let files = (shape.make)(n);
            let input = CrateInput {
                name: "hostile".into(),
                root_file: PathBuf::from("src/lib.rs"),
                files: files
                    .into_iter()
                    .map(|(p, t)| (PathBuf::from(p), Arc::<str>::from(t)))
                    .collect(),
                ..CrateInput::default()
            };
            let start = Instant::now();
            let model = Model::build(vec![input]);
            let built = start.elapsed();
            let refs = model.references();
            let all = start.elapsed();
            println!(
                "{:<20} {:>7} {:<8} build {:>8.3} s  references {:>8.3} s  ({} references, {} import rounds)",
                shape.name,
                n,
                shape.unit,
                built.as_secs_f64(),
                (all - built).as_secs_f64(),
                refs.len(),
                model.def_map.rounds,
            );
        }
    }
}
