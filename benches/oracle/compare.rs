//! rust-analyzer's resolutions against ours, site by site: a site is a file
//! and the byte range of the referring name.
//!
//! - The oracle's sites are the reference occurrences (not definitions) of a
//!   SCIP index whose symbol is defined in the index's own documents, i.e. in
//!   the workspace. Occurrences in comments (intra-doc links) are set aside:
//!   they are not code. So are operator tokens (`a + b` referring to a
//!   workspace `impl Add`): the model resolves names, not operators.
//! - Agreement: among sites both resolve to a workspace item, the share where
//!   our targets contain rust-analyzer's definition. Modules are left out:
//!   rust-analyzer defines a file module as the whole file, not a name.
//! - Coverage: among the oracle's sites whose symbol is a function, method,
//!   type, trait, variant, const or static (what calls, paths, types and
//!   imports name), the share we resolve to a workspace item. Fields and
//!   macros are counted apart.

use std::collections::{BTreeMap, HashMap};
use std::ops::{AddAssign, Range};

use super::scip::{Index, Lines};

/// Where an item's name is written.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Loc {
    /// Relative to the workspace, '/'-separated.
    pub file: String,
    pub name: Range<usize>,
}

/// What the oracle says a symbol is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SymKind {
    Function,
    Method,
    Type,
    Trait,
    Variant,
    Const,
    Static,
    Field,
    Macro,
    Module,
    Other,
}

impl SymKind {
    /// From `SymbolInformation.kind` (scip.proto's `Kind`), else from the
    /// symbol's last descriptor.
    pub fn of(kind: Option<i32>, symbol: &str) -> SymKind {
        match kind {
            Some(17) => SymKind::Function,
            Some(26 | 66 | 70 | 80) => SymKind::Method,
            Some(3 | 11 | 49 | 54 | 55 | 59) => SymKind::Type,
            Some(53) => SymKind::Trait,
            Some(12) => SymKind::Variant,
            Some(8) => SymKind::Const,
            Some(82 | 79) => SymKind::Static,
            Some(15) => SymKind::Field,
            Some(25) => SymKind::Macro,
            Some(29 | 30 | 35) => SymKind::Module,
            _ => match symbol.as_bytes().last() {
                Some(b'/') => SymKind::Module,
                Some(b'#') => SymKind::Type,
                Some(b'!') => SymKind::Macro,
                Some(b'.') if symbol.ends_with(").") => SymKind::Function,
                _ => SymKind::Other,
            },
        }
    }

    /// Named by the calls, paths, types and imports the model resolves.
    pub fn modelled(self) -> bool {
        !matches!(
            self,
            SymKind::Field | SymKind::Macro | SymKind::Module | SymKind::Other
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            SymKind::Function => "fn",
            SymKind::Method => "method",
            SymKind::Type => "type",
            SymKind::Trait => "trait",
            SymKind::Variant => "variant",
            SymKind::Const => "const",
            SymKind::Static => "static",
            SymKind::Field => "field",
            SymKind::Macro => "macro",
            SymKind::Module => "module",
            SymKind::Other => "other",
        }
    }
}

/// A reference the oracle resolved to the workspace.
#[derive(Debug, Clone)]
pub struct Site {
    pub file: String,
    pub range: Range<usize>,
    /// Zero-based.
    pub line: usize,
    pub kind: SymKind,
    pub symbol: String,
    pub defs: Vec<Loc>,
    /// The line, trimmed, for reading.
    pub source: String,
    pub in_comment: bool,
    /// An operator token (`+`, `[`, `?`) whose overload is a workspace
    /// impl: rust-analyzer references it; the model resolves names only.
    pub operator: bool,
}

/// The oracle's sites, with byte ranges computed from the files' texts
/// (`texts`: relative path to text; a document without text is skipped).
/// Also returns the number of occurrences whose range fell outside the text.
pub fn oracle_sites(index: &Index, texts: &HashMap<String, String>) -> (Vec<Site>, usize) {
    let mut bad = 0;
    let mut defs: HashMap<&str, Vec<Loc>> = HashMap::new();
    let mut kinds: HashMap<&str, i32> = HashMap::new();
    for doc in &index.documents {
        kinds.extend(doc.kinds.iter().map(|(s, k)| (s.as_str(), *k)));
        let Some(text) = texts.get(&doc.relative_path) else {
            continue;
        };
        let lines = Lines::new(text);
        for occ in doc
            .occurrences
            .iter()
            .filter(|o| o.is_definition() && !o.is_local())
        {
            match lines.range(&occ.range, doc.encoding) {
                Some((name, _)) => defs.entry(&occ.symbol).or_default().push(Loc {
                    file: doc.relative_path.clone(),
                    name,
                }),
                None => bad += 1,
            }
        }
    }
    let mut sites: BTreeMap<(String, usize, usize), Site> = BTreeMap::new();
    for doc in &index.documents {
        let Some(text) = texts.get(&doc.relative_path) else {
            continue;
        };
        let lines = Lines::new(text);
        for occ in &doc.occurrences {
            if occ.is_definition() || occ.is_local() {
                continue;
            }
            let Some(targets) = defs.get(occ.symbol.as_str()) else {
                continue; // outside the workspace
            };
            let Some((range, line)) = lines.range(&occ.range, doc.encoding) else {
                bad += 1;
                continue;
            };
            let key = (doc.relative_path.clone(), range.start, range.end);
            if let Some(site) = sites.get_mut(&key) {
                // Two symbols at one name (a macro's expansion, a shorthand
                // field): either definition is the oracle's answer.
                for d in targets {
                    if !site.defs.contains(d) {
                        site.defs.push(d.clone());
                    }
                }
                continue;
            }
            let operator =
                !text[range.clone()].starts_with(|c: char| c == '_' || c.is_alphabetic());
            let source = lines.line(line);
            let column = range.start - lines.start(line).unwrap_or(0);
            let before = source.get(..column).unwrap_or(source);
            let trimmed = source.trim_start();
            // Doc links and comments after code; `://` in a string is not one.
            let in_comment = trimmed.starts_with("//")
                || trimmed.starts_with("/*")
                || before.contains(" // ")
                || before.contains(" /// ");
            sites.insert(
                key,
                Site {
                    file: doc.relative_path.clone(),
                    range,
                    line,
                    kind: SymKind::of(kinds.get(occ.symbol.as_str()).copied(), &occ.symbol),
                    symbol: occ.symbol.clone(),
                    defs: targets.clone(),
                    source: trimmed.to_string(),
                    in_comment,
                    operator,
                },
            );
        }
    }
    (sites.into_values().collect(), bad)
}

/// What our model says a name refers to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Item(Vec<Loc>),
    Local,
    External,
    Unresolved(String),
}

/// One of our references.
#[derive(Debug, Clone)]
pub struct Ours {
    pub file: String,
    pub range: Range<usize>,
    /// Call, MethodCall, Path, Type, Import, Macro, Field.
    pub kind: String,
    pub target: Target,
}

/// Counts of one workspace, or of all.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// The oracle's sites (outside comments, operators left out).
    pub sites: usize,
    /// Sites in comments, set aside.
    pub in_comments: usize,
    /// Operator sites, set aside.
    pub operators: usize,
    /// Both resolve to a workspace item (modules left out).
    pub both: usize,
    /// ... and our targets contain the oracle's definition.
    pub agree: usize,
    /// ... and our target is exactly the oracle's one.
    pub exact: usize,
    /// Of `both`, those where we give several targets.
    pub multi: usize,
    /// ... and they contain the oracle's definition.
    pub multi_agree: usize,
    /// The oracle's sites of the kinds we model (calls, paths, types, imports).
    pub modelled: usize,
    /// ... that we resolve to a workspace item.
    pub covered: usize,
    /// The oracle's field and macro sites, and those we resolve.
    pub other: usize,
    pub other_covered: usize,
}

impl AddAssign for Tally {
    fn add_assign(&mut self, o: Tally) {
        self.sites += o.sites;
        self.in_comments += o.in_comments;
        self.operators += o.operators;
        self.both += o.both;
        self.agree += o.agree;
        self.exact += o.exact;
        self.multi += o.multi;
        self.multi_agree += o.multi_agree;
        self.modelled += o.modelled;
        self.covered += o.covered;
        self.other += o.other;
        self.other_covered += o.other_covered;
    }
}

/// One site for the report.
#[derive(Debug, Clone)]
pub struct Case {
    /// What kind of disagreement or miss: cases are grouped by it.
    pub group: String,
    pub file: String,
    /// One-based.
    pub line: usize,
    pub source: String,
    pub detail: String,
}

#[derive(Debug, Default)]
pub struct Outcome {
    pub tally: Tally,
    pub disagreements: Vec<Case>,
    pub uncovered: Vec<Case>,
}

/// Compare the oracle's sites with our references. `texts` gives the names
/// of the targets, to tell a same-named item apart from another one.
pub fn compare(sites: &[Site], ours: &[Ours], texts: &HashMap<String, String>) -> Outcome {
    let mut at: HashMap<(&str, usize, usize), Vec<&Ours>> = HashMap::new();
    for o in ours {
        at.entry((o.file.as_str(), o.range.start, o.range.end))
            .or_default()
            .push(o);
    }
    let name = |l: &Loc| {
        texts
            .get(&l.file)
            .and_then(|t| t.get(l.name.clone()))
            .unwrap_or("?")
            .to_string()
    };
    let mut out = Outcome::default();
    for site in sites {
        if site.in_comment {
            out.tally.in_comments += 1;
            continue;
        }
        if site.operator {
            out.tally.operators += 1;
            continue;
        }
        out.tally.sites += 1;
        let here = at
            .get(&(site.file.as_str(), site.range.start, site.range.end))
            .map(Vec::as_slice)
            .unwrap_or_default();
        // The reference that resolves to an item, else the first one.
        let mine = here
            .iter()
            .find(|o| matches!(&o.target, Target::Item(t) if !t.is_empty()))
            .or(here.first());
        let targets = match mine.map(|o| &o.target) {
            Some(Target::Item(t)) if !t.is_empty() => Some(t),
            _ => None,
        };
        let case = |group: String, detail: String| Case {
            group,
            file: site.file.clone(),
            line: site.line + 1,
            source: site.source.clone(),
            detail,
        };
        if site.kind.modelled() {
            out.tally.modelled += 1;
            out.tally.covered += usize::from(targets.is_some());
        } else if site.kind != SymKind::Other {
            out.tally.other += 1;
            out.tally.other_covered += usize::from(targets.is_some());
        }
        let Some(targets) = targets else {
            if site.kind.modelled() {
                let status = match mine {
                    None => "no reference at this site".to_string(),
                    Some(o) => format!("{} {}", o.kind, status(&o.target)),
                };
                out.uncovered.push(case(
                    format!("RA {} · ours: {status}", site.kind.name()),
                    format!("RA: {}", site.symbol),
                ));
            }
            continue;
        };
        if site.kind == SymKind::Module {
            continue;
        }
        out.tally.both += 1;
        let agree = targets.iter().any(|t| site.defs.contains(t));
        out.tally.agree += usize::from(agree);
        out.tally.exact += usize::from(agree && targets.len() == 1);
        if targets.len() > 1 {
            out.tally.multi += 1;
            out.tally.multi_agree += usize::from(agree);
        }
        if !agree {
            let ra_names: Vec<String> = site.defs.iter().map(name).collect();
            let same = targets.iter().any(|t| ra_names.contains(&name(t)));
            // `impl#[Type][Trait]name().`: the method of a trait's impl.
            let impl_item = if site.symbol.contains("impl#") && site.symbol.contains("][") {
                ", RA: a trait impl's item"
            } else {
                ""
            };
            let kind = mine.map_or("?", |o| o.kind.as_str());
            out.disagreements.push(case(
                format!(
                    "ours {kind} → RA {}{impl_item}: {} target{}, {}",
                    site.kind.name(),
                    targets.len(),
                    if targets.len() == 1 { "" } else { "s" },
                    if same {
                        "same name, other item"
                    } else {
                        "other name"
                    },
                ),
                format!(
                    "RA: {} at {}; ours: {}",
                    site.symbol,
                    site.defs.iter().map(loc).collect::<Vec<_>>().join(", "),
                    targets.iter().map(loc).collect::<Vec<_>>().join(", ")
                ),
            ));
        }
    }
    out
}

fn status(t: &Target) -> String {
    match t {
        Target::Item(_) => "Item(none)".into(),
        Target::Local => "Local".into(),
        Target::External => "External".into(),
        Target::Unresolved(why) => format!("Unresolved({why})"),
    }
}

fn loc(l: &Loc) -> String {
    format!("{}@{}..{}", l.file, l.name.start, l.name.end)
}

/// Cases grouped by kind, largest group first, with up to `examples` each.
pub fn grouped(cases: &[Case], examples: usize) -> String {
    let mut groups: BTreeMap<&str, Vec<&Case>> = BTreeMap::new();
    for c in cases {
        groups.entry(&c.group).or_default().push(c);
    }
    let mut groups: Vec<_> = groups.into_iter().collect();
    groups.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(b.0)));
    let mut out = String::new();
    for (group, cases) in groups {
        out.push_str(&format!("- **{}** ({})\n", group, cases.len()));
        for c in cases.iter().take(examples) {
            out.push_str(&format!(
                "  - `{}:{}` `{}`\n    {}\n",
                c.file,
                c.line,
                c.source.replace('`', "'"),
                c.detail
            ));
        }
    }
    out
}

/// A share as a percentage, or "-" of nothing.
pub fn pct(n: usize, d: usize) -> String {
    if d == 0 {
        "-".into()
    } else {
        format!("{:.1}%", 100.0 * n as f64 / d as f64)
    }
}
