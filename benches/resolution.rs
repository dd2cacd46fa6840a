//! Name resolution against rust-analyzer, site by site (not timed: a
//! measure of correctness kept as a bench because it needs real workspaces
//! and rust-analyzer's index of each).
//!
//! `BACKEND_LINT_SCIP_CORPUS=DIR cargo bench --bench resolution [-- NAME..]`
//! where every subfolder of DIR is a workspace holding the `index.scip` that
//! `rust-analyzer scip .` wrote for it (docs/resolution.md says how they were
//! made). Prints agreement and coverage per workspace and in total (see
//! benches/oracle/compare.rs for what they count), and writes every
//! disagreement and uncovered site, grouped by kind with examples, to
//! `BACKEND_LINT_SCIP_REPORT` (default `target/resolution-report.md`).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use backend_lint::semantic::{Reference, Resolved};

mod oracle;
use oracle::compare::{self, Loc, Ours, Tally, Target, pct};

fn main() {
    let Some(corpus) = std::env::var_os("BACKEND_LINT_SCIP_CORPUS").map(PathBuf::from) else {
        println!(
            "resolution: set BACKEND_LINT_SCIP_CORPUS to a folder of workspaces with index.scip"
        );
        return;
    };
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let report_path = std::env::var_os("BACKEND_LINT_SCIP_REPORT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target/resolution-report.md"));
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .unwrap_or_else(|e| panic!("{}: {e}", corpus.display()))
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.join("index.scip").is_file())
        .filter(|p| only.is_empty() || only.iter().any(|o| p.ends_with(o)))
        .collect();
    dirs.sort();

    println!(
        "{:<12} {:>7} {:>7} {:>7} {:>7} {:>11} {:>7} {:>9} {:>7}",
        "workspace", "sites", "both", "agree", "exact", "multi", "cover", "fld+mac", "model s"
    );
    let mut total = Tally::default();
    let mut report = String::from("# Resolution against rust-analyzer: what differs\n\n");
    let mut all_disagreements = Vec::new();
    let mut all_uncovered = Vec::new();
    for dir in &dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let (index, texts) = match oracle::read_workspace(dir) {
            Ok(x) => x,
            Err(e) => {
                println!("{name:<12} skipped: {e}");
                continue;
            }
        };
        let (sites, bad) = compare::oracle_sites(&index, &texts);
        let start = Instant::now();
        let model = match backend_lint::run::model::load(dir) {
            Ok(m) => m,
            Err(e) => {
                println!("{name:<12} skipped: the model did not load: {e}");
                continue;
            }
        };
        let refs = model.references();
        let seconds = start.elapsed().as_secs_f64();
        let ours = ours(dir, &refs);
        let mut out = compare::compare(&sites, &ours, &texts);
        // A site in a file the model did not load (a target discovery left
        // out, a file no `mod` reaches) is a miss of another kind.
        let loaded: HashSet<String> = model.files.iter().map(|f| relative(dir, &f.path)).collect();
        for case in &mut out.uncovered {
            if !loaded.contains(&case.file) {
                case.group = case
                    .group
                    .replace("ours: no reference at this site", "file not in the model");
            }
        }
        let t = out.tally;
        println!(
            "{name:<12} {:>7} {:>7} {:>7} {:>7} {:>11} {:>7} {:>9} {:>6.1}s",
            t.sites,
            t.both,
            pct(t.agree, t.both),
            pct(t.exact, t.both),
            format!("{}/{}", t.multi_agree, t.multi),
            pct(t.covered, t.modelled),
            pct(t.other_covered, t.other),
            seconds
        );
        if bad > 0 {
            println!("{name:<12} ({bad} occurrences out of their file's text, left out)");
        }
        total += t;
        let prefix = |mut c: compare::Case| {
            c.file = format!("{name}/{}", c.file);
            c
        };
        report.push_str(&format!(
            "## {name}\n\n{} sites; agreement {} of {}; coverage {} of {}\n\n",
            t.sites,
            pct(t.agree, t.both),
            t.both,
            pct(t.covered, t.modelled),
            t.modelled
        ));
        report.push_str("### Disagreements\n\n");
        report.push_str(&compare::grouped(&out.disagreements, 3));
        report.push_str("\n### Uncovered\n\n");
        report.push_str(&compare::grouped(&out.uncovered, 3));
        report.push('\n');
        all_disagreements.extend(out.disagreements.into_iter().map(prefix));
        all_uncovered.extend(out.uncovered.into_iter().map(prefix));
    }
    let t = total;
    println!(
        "{:<12} {:>7} {:>7} {:>7} {:>7} {:>11} {:>7} {:>9}",
        "total",
        t.sites,
        t.both,
        pct(t.agree, t.both),
        pct(t.exact, t.both),
        format!("{}/{}", t.multi_agree, t.multi),
        pct(t.covered, t.modelled),
        pct(t.other_covered, t.other),
    );
    println!(
        "agreement {} ({} of {} sites both resolve; exact {}, multi-target {} of {}); \
         coverage {} ({} of {} call/path/type sites); left out: {} sites in comments, \
         {} operator tokens",
        pct(t.agree, t.both),
        t.agree,
        t.both,
        pct(t.exact, t.both),
        t.multi_agree,
        t.multi,
        pct(t.covered, t.modelled),
        t.covered,
        t.modelled,
        t.in_comments,
        t.operators
    );
    let all = format!(
        "# All workspaces\n\n### Disagreements ({})\n\n{}\n### Uncovered ({})\n\n{}\n",
        all_disagreements.len(),
        compare::grouped(&all_disagreements, 3),
        all_uncovered.len(),
        compare::grouped(&all_uncovered, 3)
    );
    let report = report.replacen("\n\n", &format!("\n\n{all}\n"), 1);
    match std::fs::write(&report_path, report) {
        Ok(()) => println!("report: {}", report_path.display()),
        Err(e) => println!("report not written: {}: {e}", report_path.display()),
    }
}

/// A path of the model relative to the workspace, '/'-separated, as SCIP
/// writes it.
fn relative(dir: &Path, p: &Path) -> String {
    let canonical = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let p = p.strip_prefix(dir).or_else(|_| p.strip_prefix(&canonical));
    let p = p.map(Path::to_path_buf).unwrap_or_default();
    p.to_string_lossy().replace('\\', "/")
}

/// Our references, with paths relative to the workspace as SCIP has them.
fn ours(dir: &Path, refs: &[Reference]) -> Vec<Ours> {
    let mut cache: HashMap<PathBuf, String> = HashMap::new();
    let mut rel = |p: &Path| {
        cache
            .entry(p.to_path_buf())
            .or_insert_with(|| relative(dir, p))
            .clone()
    };
    refs.iter()
        .map(|r| Ours {
            file: rel(&r.file),
            range: r.range.clone(),
            kind: format!("{:?}", r.kind),
            target: match &r.target {
                Resolved::Item(locs) => Target::Item(
                    locs.iter()
                        .map(|l| Loc {
                            file: rel(&l.file),
                            name: l.name.clone(),
                        })
                        .collect(),
                ),
                Resolved::Local => Target::Local,
                Resolved::External => Target::External,
                Resolved::Unresolved(why) => Target::Unresolved(format!("{why:?}")),
            },
        })
        .collect()
}
