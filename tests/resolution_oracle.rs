//! The resolution bench's own parts, without rust-analyzer: its SCIP reader
//! on an index rust-analyzer wrote for a two-file crate
//! (tests/data/oracle/tiny, regenerate with `rust-analyzer scip .` there,
//! build scripts and proc macros off), and its counting of agreement and
//! coverage on hand-made answers.

#[path = "../benches/oracle/mod.rs"]
mod oracle;

mod common;

use std::collections::HashMap;

use oracle::compare::{self, Loc, Ours, Site, SymKind, Target};
use oracle::scip::Encoding;

fn tiny() -> (oracle::scip::Index, HashMap<String, String>) {
    oracle::read_workspace(&common::root().join("tests/data/oracle/tiny")).unwrap()
}

/// The name a symbol's last descriptor gives (`util/helper().` → helper).
fn descriptor_name(symbol: &str) -> Option<&str> {
    if symbol.starts_with("local ") {
        return None;
    }
    let last = symbol.rsplit(' ').next()?;
    let last = last.trim_end_matches(['.', '#', '/', '!']);
    let last = last.strip_suffix("()").unwrap_or(last);
    let name = last.rsplit(['/', '#', '.']).next()?;
    (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')).then_some(name)
}

#[test]
fn every_occurrence_decodes_to_its_name_in_the_text() {
    let (index, texts) = tiny();
    let mut paths: Vec<&str> = index
        .documents
        .iter()
        .map(|d| d.relative_path.as_str())
        .collect();
    paths.sort();
    assert_eq!(paths, ["src/lib.rs", "src/util.rs"]);
    let mut checked = 0;
    for doc in &index.documents {
        assert_eq!(doc.encoding, Encoding::Utf8, "{}", doc.relative_path);
        let lines = oracle::scip::Lines::new(&texts[&doc.relative_path]);
        for occ in &doc.occurrences {
            let Some(name) = descriptor_name(&occ.symbol) else {
                continue;
            };
            if occ.symbol.ends_with('/') && occ.is_definition() || occ.symbol.ends_with(" crate/") {
                continue; // a file module is its whole file; a crate is named `crate/`
            }
            let (range, _) = lines
                .range(&occ.range, doc.encoding)
                .unwrap_or_else(|| panic!("{:?} out of {}", occ.range, doc.relative_path));
            assert_eq!(
                &texts[&doc.relative_path][range], name,
                "{} at {:?} in {}",
                occ.symbol, occ.range, doc.relative_path
            );
            checked += 1;
        }
    }
    // Names after text outside ASCII are among them (lib.rs line 14).
    assert!(checked > 30, "{checked} occurrences checked");
}

#[test]
fn columns_count_in_the_documents_encoding() {
    let text = "let s = \"é𝓤\"; f(s)\n";
    let lines = oracle::scip::Lines::new(text);
    let f = text.find("f(").unwrap();
    // "é" is 2 bytes and 1 UTF-16 unit, "𝓤" 4 bytes and 2 units.
    assert_eq!(lines.offset(0, f as i32, Encoding::Utf8), Some(f));
    assert_eq!(lines.offset(0, f as i32 - 3, Encoding::Utf16), Some(f));
    assert_eq!(lines.offset(0, f as i32 - 4, Encoding::Utf32), Some(f));
    // Inside a character, or past the line: no offset.
    assert_eq!(lines.offset(0, 10, Encoding::Utf8), None);
    assert_eq!(lines.offset(0, 100, Encoding::Utf8), None);
    assert_eq!(lines.range(&[0, 0, 3], Encoding::Utf8), Some((0..3, 0)));
}

#[test]
fn malformed_indexes_are_errors() {
    assert!(oracle::scip::decode(&[0x12, 0x05, 0x0a]).is_err()); // truncated
    assert!(oracle::scip::decode(&[0xff; 11]).is_err()); // endless varint
    assert!(oracle::scip::decode(&[0x13]).is_err()); // wire type 3
    assert!(oracle::scip::decode(&[]).unwrap().documents.is_empty());
}

fn render(sites: &[Site]) -> String {
    sites
        .iter()
        .map(|s| {
            let defs: Vec<String> = s
                .defs
                .iter()
                .map(|d| format!("{}@{:?}", d.file, d.name))
                .collect();
            format!(
                "{}:{} {:?} {}{}{} -> {}\n",
                s.file,
                s.line + 1,
                s.range,
                s.kind.name(),
                if s.in_comment { " (comment)" } else { "" },
                if s.operator { " (operator)" } else { "" },
                defs.join(" ")
            )
        })
        .collect()
}

#[test]
fn sites_are_the_references_to_workspace_items() {
    let (index, texts) = tiny();
    let (sites, bad) = compare::oracle_sites(&index, &texts);
    assert_eq!(bad, 0);
    common::snapshot("resolution_oracle_sites.txt", &render(&sites));
}

fn name_at<'t>(
    texts: &'t HashMap<String, String>,
    file: &str,
    range: &std::ops::Range<usize>,
) -> &'t str {
    &texts[file][range.clone()]
}

/// Our answers made from the oracle's: right for most sites; for `name`
/// (a generic receiver) the trait's declaration and the impl's method; a
/// wrong item for `len`; `GREETING` unresolved; no reference at `add`.
fn made_up_answers(sites: &[Site], texts: &HashMap<String, String>) -> Vec<Ours> {
    let def_of = |name: &str| -> Vec<Loc> {
        sites
            .iter()
            .find(|s| name_at(texts, &s.file, &s.range) == name)
            .map(|s| s.defs.clone())
            .unwrap()
    };
    let mut ours = Vec::new();
    for s in sites {
        let name = name_at(texts, &s.file, &s.range);
        let target = match name {
            "name" => {
                let mut both = s.defs.clone();
                let imp = texts["src/util.rs"].rfind("fn name").unwrap() + 3;
                both.push(Loc {
                    file: "src/util.rs".into(),
                    name: imp..imp + 4,
                });
                Target::Item(both)
            }
            "len" => Target::Item(def_of("Registry")),
            "GREETING" => Target::Unresolved("NotFound".into()),
            "add" => continue,
            _ => Target::Item(s.defs.clone()),
        };
        ours.push(Ours {
            file: s.file.clone(),
            range: s.range.clone(),
            kind: "Call".into(),
            target,
        });
    }
    ours
}

#[test]
fn agreement_and_coverage_are_counted_per_site() {
    let (index, texts) = tiny();
    let (sites, _) = compare::oracle_sites(&index, &texts);
    let ours = made_up_answers(&sites, &texts);
    let out = compare::compare(&sites, &ours, &texts);
    let t = out.tally;
    let count = |name: &str| {
        sites
            .iter()
            .filter(|s| !s.in_comment && name_at(&texts, &s.file, &s.range) == name)
            .count()
    };
    let modules = sites.iter().filter(|s| s.kind == SymKind::Module).count();
    let fields = sites.iter().filter(|s| s.kind == SymKind::Field).count();
    assert_eq!(t.in_comments, 0);
    // `Registry::new() + 1`: the `+` refers to the workspace's `impl Add`,
    // and so do the blanks around it (rust-analyzer maps every token of the
    // file to its nearest reference).
    let operators: Vec<&str> = sites
        .iter()
        .filter(|s| s.operator)
        .map(|s| name_at(&texts, &s.file, &s.range))
        .collect();
    assert!(operators.contains(&"+"), "{operators:?}");
    assert!(
        operators.iter().all(|o| *o == "+" || o.trim().is_empty()),
        "{operators:?}"
    );
    assert_eq!(t.operators, operators.len());
    assert_eq!(t.sites, sites.len() - operators.len());
    // Every site we resolve but the modules is compared.
    assert_eq!(t.both, t.sites - count("GREETING") - count("add") - modules);
    assert_eq!(t.agree, t.both - count("len"));
    assert_eq!(t.multi, count("name"));
    assert_eq!(t.multi_agree, count("name"));
    assert_eq!(t.exact, t.agree - count("name"));
    assert_eq!(t.modelled, t.sites - modules - fields);
    assert_eq!(t.covered, t.modelled - count("GREETING") - count("add"));
    assert_eq!(t.other, modules + fields);
    // The fixture has each case at least once.
    assert!(count("name") == 1 && count("len") == 1 && count("GREETING") == 1 && count("add") == 1);
    assert!(fields >= 1, "a field site");

    assert_eq!(out.disagreements.len(), 1);
    assert_eq!(
        out.disagreements[0].group,
        "ours Call → RA method: 1 target, other name"
    );
    let mut groups: Vec<&str> = out.uncovered.iter().map(|c| c.group.as_str()).collect();
    groups.sort();
    assert_eq!(
        groups,
        [
            "RA const · ours: Call Unresolved(NotFound)",
            "RA method · ours: no reference at this site"
        ]
    );
    let report = compare::grouped(&out.uncovered, 3);
    assert!(
        report.contains("`src/lib.rs:15` `r.add(GREETING);`"),
        "{report}"
    );
}
