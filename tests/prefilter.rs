//! The default mode (text prefilter, structure-only reading of the files
//! that cannot yield a finding) against `--no-prefilter`, which parses every
//! file:
//!
//! - every fixture, the demo crate and the sample crate give the same
//!   findings, errors and skipped files in both modes;
//! - on real code (`BACKEND_LINT_CORPUS`, a folder of crates: `.ci/run`
//!   gives the crates cargo unpacked in `$CARGO_HOME/registry/src`; these
//!   tests are `#[ignore]`d, and fail saying so when run without it), every
//!   file the prefilter lets through has no fact a finding can come from, and
//!   the same structure facts as the walker, and both modes report the same;
//! - tricky items read without a parse give what the walker gives;
//! - under vocabularies whose sets overlap, every name in every place it
//!   can stand: what the walk's collectors declare is all the fast path
//!   needs to know of them;
//! - leaving out the function bodies that hold nothing to record changes
//!   no fact of a file parsed in full (fixtures, runtimes, registry).
//!
//! The corpus parts are bounded so that a debug `cargo test` stays quick:
//! `BACKEND_LINT_CORPUS_MB` sets the budget (default 8 MB of the registry,
//! an eighth of it per runtime; 0 for everything).

use std::path::PathBuf;

use backend_lint::config::Vocabulary;
use backend_lint::lints::LINTS;
use backend_lint::model::facts::{Comparison, FileFacts, Operand, Registry, ScopeSegment};
use backend_lint::prefilter;
use backend_lint::run::{
    Input, Outcome, analyze, analyze_with_progress, parse_and_extract, parse_and_extract_as_written,
};

mod common;
use common::{budget, corpus, corpus_crates, differences, fixture_crates, rs_files, run, sample};

#[test]
fn every_fixture_gives_the_same_report_in_both_modes() {
    let mut failures = Vec::new();
    let crates = fixture_crates();
    assert!(crates.len() > 40, "fixtures not found");
    for krate in &crates {
        let (default, full) = (run(krate, true), run(krate, false));
        failures.extend(differences(&krate.name, &default, &full));
        if default.skipped != full.skipped {
            failures.push(format!("{}: skipped files differ", krate.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A scope's segment with the id of a function body left out (the body
/// of `name` is `{name}`): only code in that body can name it.
fn segment(seg: &ScopeSegment) -> String {
    match seg {
        ScopeSegment::Module(name) => name.clone(),
        ScopeSegment::Block { name, .. } => format!("{{{name}}}"),
    }
}

/// A comparison of a platform value the file itself shows (raw or
/// canonical), not only of calls whose functions the crate pass knows
/// ([`Operand::Call`]): those are read again whole, in every file naming a
/// learned function, by the runner's stage 2b (issue 19), so the prefilter
/// may skip them at first.
fn decided_here(c: &Comparison) -> bool {
    (c.sides.iter()).any(|s| matches!(s.operand, Operand::Raw | Operand::Canonical))
}

/// The structure facts that name resolution and the module tree use, with
/// scopes as paths of [`segment`]s.
fn structure(f: &FileFacts) -> Vec<String> {
    let path = |s: u32| {
        f.scopes[s as usize]
            .iter()
            .map(segment)
            .collect::<Vec<_>>()
            .join("::")
    };
    let mut out = Vec::new();
    for c in &f.consts {
        out.push(format!("const {} {} {:?}", path(c.scope), c.name, c.value));
    }
    for u in &f.uses {
        out.push(format!(
            "use {} {:?} {:?}",
            path(u.scope),
            u.alias,
            u.target
        ));
    }
    for d in &f.mod_decls {
        out.push(format!(
            "mod {} {} {:?} {:?}",
            path(d.scope),
            d.name,
            d.path_attr,
            d.cfgs
        ));
    }
    for s in 0..f.scopes.len() {
        if !f.scopes[s].iter().any(ScopeSegment::is_block) {
            out.push(format!("scope {}", path(s as u32)));
        }
    }
    for t in &f.types {
        out.push(format!("type {t}"));
    }
    // Order matters within a module (first `use` found first); the scopes
    // of the lines keep that apart, so a sort keeps it comparable.
    out.sort();
    out
}

/// A file the prefilter lets through has nothing a finding can come from,
/// and the structure the walker finds. `None` when the prefilter parses it.
fn check_file(path: &str, text: &str, vocab: &Vocabulary) -> Option<Result<(), String>> {
    let mine = prefilter::explain(text, vocab).ok()?;
    let full = match parse_and_extract(0, text, vocab) {
        Ok(f) => f,
        Err(e) => {
            return Some(Err(format!(
                "{path}: read by the prefilter, but: {}",
                e.message
            )));
        }
    };
    if !(full.registrations.is_empty()
        && !full.comparisons.iter().any(decided_here)
        && full.lowering.is_empty()
        && full.lowering_platforms.is_empty())
    {
        return Some(Err(format!("{path}: skipped, yet the walker finds facts")));
    }
    let (a, b) = (structure(&mine), structure(&full));
    if a != b {
        return Some(Err(format!(
            "{path}: structure differs\n  prefilter: {a:?}\n  walker:    {b:?}"
        )));
    }
    Some(Ok(()))
}

/// What a finding can come from in a file's facts, positions included, and
/// its structure: everything but the numbers that tell functions, branches
/// and scopes apart, which a body left out shifts.
fn recorded(f: &FileFacts) -> Vec<String> {
    // A registry made in the function, without its number.
    let registry = |r: &Registry| match r {
        Registry::Local { text, .. } => format!("Local {text}"),
        other => format!("{other:?}"),
    };
    let mut out = structure(f);
    // `scope: 7` in a path: the scope's own path, without body ids.
    let scoped = |debug: String| {
        let mut rest = debug.as_str();
        let mut text = String::new();
        while let Some(k) = rest.find("scope: ") {
            let digits = rest[k + 7..].bytes().take_while(u8::is_ascii_digit).count();
            let n: usize = rest[k + 7..k + 7 + digits].parse().unwrap_or(usize::MAX);
            let path: Vec<String> = f
                .scopes
                .get(n)
                .map_or(vec![], |p| p.iter().map(segment).collect());
            text.push_str(&rest[..k]);
            text.push_str(&format!("scope: {path:?}"));
            rest = &rest[k + 7 + digits..];
        }
        text + rest
    };
    for r in &f.registrations {
        out.push(scoped(format!(
            "registration {:?} {:?} {} {} {:?} {:?} {:?} {}",
            r.key_span,
            r.call_span,
            r.callee,
            registry(&r.registry),
            r.key,
            r.also_keyed_by,
            r.lowering_primitive,
            r.expects_failure
        )));
    }
    // An unregistration counts only between two registrations of its
    // function (`duplicate_registration::unregistered_between`).
    for u in &f.unregistrations {
        if f.registrations
            .iter()
            .any(|r| r.context.function == u.function)
        {
            out.push(scoped(format!(
                "unregistration {:?} {} {:?}",
                u.span,
                registry(&u.registry),
                u.key
            )));
        }
    }
    for c in f.comparisons.iter().filter(|c| decided_here(c)) {
        let sides: Vec<_> = c
            .sides
            .iter()
            .map(|s| (s.span, &s.text, &s.origin, &s.operand))
            .collect();
        out.push(scoped(format!(
            "comparison {:?} {} {sides:?}",
            c.how, c.in_test
        )));
    }
    for l in &f.lowering {
        let backends: Vec<_> = l.backends.iter().map(|s| (s.span, &s.value)).collect();
        let platforms: Vec<_> = l.platforms.iter().map(|s| (s.span, &s.value)).collect();
        let looped: Vec<_> = l
            .loop_platforms
            .iter()
            .map(|s| (s.span, &s.value))
            .collect();
        out.push(scoped(format!(
            "lowering {backends:?} {platforms:?} {looped:?} {:?}",
            l.backend_reads
        )));
    }
    out.push(scoped(format!(
        "lowering platforms {:?}",
        f.lowering_platforms
    )));
    // Value sets hold a canonical literal, so their bodies are never left
    // out; the comparisons of their calls are read again whole by the
    // runner's stage 2b, in every file that names the function. A set
    // indexing an array of platform names (`NAMES[self as usize]`) holds
    // none: the files naming the array (this one) are read again whole.
    out.push(format!("arrays {:?}", f.str_arrays));
    for v in f.value_sets.iter().filter(|_| f.str_arrays.is_empty()) {
        out.push(scoped(format!("value set {} {:?}", v.call, v.values)));
    }
    // So are those of functions returning a context they gave a backend
    // (they name the backend request), and of sources and canonicalizers
    // (they name one); wrappers of them are read again whole by stage 2b.
    for c in &f.context_fns {
        let backends: Vec<_> = c.backends.iter().map(|b| (b.span, &b.value)).collect();
        out.push(scoped(format!("context fn {} {backends:?}", c.call)));
    }
    for p in f
        .platform_fns
        .iter()
        .filter(|p| !matches!(p.returns, Operand::Call(_)))
    {
        out.push(scoped(format!("platform fn {} {:?}", p.call, p.returns)));
    }
    out
}

/// The facts of a file read two ways (`a` named `how_a`, `b` named `how_b`),
/// when they differ: what each alone records.
fn facts_differ(
    path: &str,
    (how_a, a): (&str, &FileFacts),
    (how_b, b): (&str, &FileFacts),
) -> Option<String> {
    let (x, y) = (recorded(a), recorded(b));
    if x == y {
        return None;
    }
    let only = |x: &[String], y: &[String]| -> Vec<String> {
        x.iter().filter(|l| !y.contains(l)).cloned().collect()
    };
    Some(format!(
        "{path}: facts differ\n  {how_a}: {:?}\n  {how_b}: {:?}",
        only(&x, &y),
        only(&y, &x)
    ))
}

/// A file parsed in full gives the same facts with the function bodies
/// that hold nothing to record left out (`None`: none is, or the file does
/// not parse). `Some(Ok(n))`: `n` bytes were left out.
fn check_bodies(path: &str, text: &str, vocab: &Vocabulary) -> Option<Result<usize, String>> {
    let reduced = prefilter::without_quiet_bodies(text, vocab)?;
    if reduced.len() != text.len() || reduced.lines().count() != text.lines().count() {
        return Some(Err(format!("{path}: offsets or lines moved")));
    }
    let full = parse_and_extract_as_written(0, text, vocab).ok()?;
    let mine = match parse_and_extract(0, &reduced, vocab) {
        Ok(f) => f,
        Err(e) => {
            return Some(Err(format!(
                "{path}: the rest does not parse: {}",
                e.message
            )));
        }
    };
    if let Some(e) = facts_differ(path, ("bodies left out", &mine), ("whole file", &full)) {
        return Some(Err(e));
    }
    let left_out = text
        .bytes()
        .zip(reduced.bytes())
        .filter(|(x, y)| x != y)
        .count();
    Some(Ok(left_out))
}

/// Every file of `files` that is parsed without some bodies has the facts
/// of the whole file; returns how many were reduced, of the first `fixtures`.
fn bodies_left_out(files: &[PathBuf], fixtures: usize) -> usize {
    let vocab = Vocabulary::default();
    let (mut reduced, mut left_out, mut failures) = (0, 0, Vec::new());
    let mut fixtures_reduced = 0;
    for (i, path) in files.iter().enumerate() {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        match check_bodies(&path.display().to_string(), &text, &vocab) {
            Some(Ok(n)) => {
                reduced += 1;
                left_out += n;
                fixtures_reduced += usize::from(i < fixtures);
            }
            Some(Err(e)) => failures.push(e),
            None => {}
        }
    }
    eprintln!(
        "{} files: {reduced} parsed without {left_out} bytes of bodies ({fixtures_reduced} of {fixtures} fixtures)",
        files.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    fixtures_reduced
}

#[test]
fn bodies_left_out_change_no_fact() {
    let files: Vec<PathBuf> = fixture_crates().into_iter().flat_map(|c| c.files).collect();
    let fixtures_reduced = bodies_left_out(&files, files.len());
    // The fixtures alone have dozens of files with a function that names
    // nothing: a reduction that never happens would pass the above.
    assert!(
        fixtures_reduced >= 20,
        "only {fixtures_reduced} of {} fixtures reduced",
        files.len()
    );
}

#[test]
#[ignore = "reads real code: set BACKEND_LINT_CORPUS"]
fn bodies_left_out_change_no_fact_in_the_corpus() {
    let files: Vec<PathBuf> = corpus_crates().into_iter().flat_map(|c| c.files).collect();
    bodies_left_out(&files, 0);
}

/// A file parsed with the doc comments of its items blanked (as every
/// file parsed in full is) gives the facts of the file as written (`None`:
/// the file does not parse). `Some(Ok(true))`: some doc was blanked.
fn check_docs(path: &str, text: &str, vocab: &Vocabulary) -> Option<Result<bool, String>> {
    let written = parse_and_extract_as_written(0, text, vocab).ok()?;
    let mine = match parse_and_extract(0, text, vocab) {
        Ok(f) => f,
        Err(e) => {
            return Some(Err(format!(
                "{path}: blanked, it does not parse: {}",
                e.message
            )));
        }
    };
    if let Some(e) = facts_differ(path, ("docs blanked", &mine), ("as written", &written)) {
        return Some(Err(e));
    }
    if mine.directives != written.directives {
        return Some(Err(format!("{path}: suppression comments differ")));
    }
    let parseable = backend_lint::syntax::parse::parseable_text(text);
    Some(Ok(matches!(
        prefilter::skim_for_parse(&parseable, vocab),
        Some(Some(_))
    )))
}

/// Every file of `files` gives the same facts with its item docs blanked;
/// returns in how many some were.
fn docs_left_out(files: &[PathBuf]) -> usize {
    let vocab = Vocabulary::default();
    let (mut blanked, mut failures) = (0, Vec::new());
    for path in files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        match check_docs(&path.display().to_string(), &text, &vocab) {
            Some(Ok(some)) => blanked += usize::from(some),
            Some(Err(e)) => failures.push(e),
            None => {}
        }
    }
    eprintln!(
        "{} files: {blanked} parsed without their items' docs",
        files.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    blanked
}

#[test]
fn docs_left_out_change_no_fact() {
    let mut files: Vec<PathBuf> = fixture_crates().into_iter().flat_map(|c| c.files).collect();
    // This crate's own source: documented items, every shape of doc comment.
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut dirs = vec![src];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            match entry.path() {
                p if p.is_dir() => dirs.push(p),
                p if p.extension().is_some_and(|e| e == "rs") => files.push(p),
                _ => {}
            }
        }
    }
    let blanked = docs_left_out(&files);
    // Without AVX2 the skim does not run and nothing is blanked.
    if backend_lint::prefilter::skim_for_parse("fn f() {}", &Vocabulary::default()).is_some() {
        assert!(blanked >= 50, "docs blanked in only {blanked} files");
    }
}

#[test]
#[ignore = "reads real code: set BACKEND_LINT_CORPUS"]
fn docs_left_out_change_no_fact_in_the_corpus() {
    let files: Vec<PathBuf> = corpus_crates().into_iter().flat_map(|c| c.files).collect();
    docs_left_out(&files);
}

/// A singleton's mechanism on a static (issue 29) is parsed for: the text
/// check never calls such a file quiet (wait-timeout's `INIT.call_once(..)`
/// was, and the lexer read it otherwise).
#[test]
fn a_singleton_s_mechanism_is_never_quiet() {
    let vocab = Vocabulary::default();
    for text in [
        "static INIT: Once = Once::new();\nfn f() { INIT.call_once(g); }\n",
        "static HOOK: OnceLock<u8> = OnceLock::new();\nfn f() { HOOK.set(1).unwrap(); }\n",
    ] {
        assert!(prefilter::lexes(text), "{text}");
        assert!(!prefilter::lexes_quietly(text, &vocab), "{text}");
        assert!(!prefilter::quiet(text, &vocab), "{text}");
    }
}

/// A file the text check calls quiet has nothing a finding can come from
/// (it may still not parse: that is for the lexer to find), and the lexer
/// watching the vocabulary reads it as the one watching nothing (the engine
/// lexes every file the first way).
fn check_quiet(path: &str, text: &str, vocab: &Vocabulary) -> Option<Result<(), String>> {
    if !prefilter::quiet(text, vocab) {
        return None;
    }
    if prefilter::lexes(text) != prefilter::lexes_quietly(text, vocab) {
        return Some(Err(format!("{path}: quiet, yet lexed differently")));
    }
    match parse_and_extract(0, text, vocab) {
        // Comparisons of calls are decided crate-wide and read again whole
        // where a function is learned (`decided_here`).
        Ok(mut full) => {
            full.comparisons.retain(decided_here);
            // A field compared as written counts only in a crate that hands
            // it to a normalizer, whose name makes the files naming it read
            // again (`run::learn::forget_unlearned_calls`, `learned_names`).
            full.field_uses.compared.clear();
            if full.may_be_reported() {
                return Some(Err(format!("{path}: quiet, yet the walker finds facts")));
            }
            Some(Ok(()))
        }
        Err(_) => Some(Ok(())),
    }
}

#[test]
#[ignore = "reads real code: set BACKEND_LINT_CORPUS"]
fn the_corpus_keeps_its_structure() {
    let dir = corpus();
    let files = sample(rs_files(&dir), budget());
    assert!(files.len() > 100, "too few files under {}", dir.display());
    let vocab = Vocabulary::default();
    let (mut read, mut quiet, mut skimmed, mut failures) = (0, 0, 0, Vec::new());
    let mut unparsable = 0;
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let path = path.display().to_string();
        // A file syn rejects has no structure of the walker's to compare:
        // the prefilter does not look for syntax errors (docs/architecture.md).
        let syn_rejects = || syn::parse_file(&text).is_err();
        match check_file(&path, &text, &vocab) {
            Some(Ok(())) => read += 1,
            Some(Err(_)) if syn_rejects() => unparsable += 1,
            Some(Err(e)) => failures.push(e),
            None => {}
        }
        // The engine's one search for stems, `concat` and suppression
        // comments lexes as the lexer and misses no suppression comment.
        let survey = prefilter::survey(&text, &vocab);
        if survey.lexes != prefilter::lexes_quietly(&text, &vocab) {
            failures.push(format!("{path}: surveyed and lexed differently"));
        }
        let directives = backend_lint::syntax::comments::scan(0, &text);
        let none = directives.directives.is_empty() && directives.malformed.is_empty();
        if !(survey.directives || none) {
            failures.push(format!("{path}: a suppression comment the survey missed"));
        }
        // The fast path accepts and rejects what the lexer does.
        match prefilter::skim_agrees(&text, &vocab) {
            Ok(Some(true)) => skimmed += 1,
            Ok(_) => {}
            Err(diff) => failures.push(format!("{path}: {diff}")),
        }
        match check_quiet(&path, &text, &vocab) {
            Some(Ok(())) => quiet += 1,
            Some(Err(e)) => failures.push(e),
            None => {}
        }
        // A file parsed in full: its bodies with nothing to record left out.
        if !prefilter::lexes_quietly(&text, &vocab)
            && let Some(Err(e)) = check_bodies(&path, &text, &vocab)
        {
            failures.push(e);
        }
    }
    eprintln!(
        "{} files: {read} read by the prefilter ({unparsable} more that syn rejects), {quiet} quiet, {skimmed} taken by the fast path",
        files.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Most real files cannot yield a finding: a prefilter that reads
    // nothing would pass the above trivially.
    assert!(
        read * 10 > files.len() * 8,
        "{read} of {} read",
        files.len()
    );
    // Likewise for the text check: most files pass it (84% of the registry).
    assert!(
        quiet * 10 > files.len() * 6,
        "{quiet} of {} quiet",
        files.len()
    );
    // And for the fast path, where it can run: a fast path that gives up on
    // everything agrees with the lexer trivially.
    if backend_lint::syntax::simd::available() {
        assert!(
            skimmed * 10 > files.len() * 8,
            "{skimmed} of {} taken by the fast path",
            files.len()
        );
    }
}

#[test]
#[ignore = "reads real code: set BACKEND_LINT_CORPUS"]
fn the_corpus_gives_the_same_report_in_both_modes() {
    let mut failures = Vec::new();
    for krate in corpus_crates() {
        let (default, full) = (run(&krate, true), run(&krate, false));
        // The same findings; the same errors, but that `--no-prefilter` also
        // reports the syntax errors of files the prefilter only lexes
        // (docs/architecture.md): every error by default is one with it,
        // and the others are syntax errors.
        if default.diagnostics != full.diagnostics {
            failures.extend(differences(&krate.name, &default, &full));
        }
        let syntax_error = |e: &&backend_lint::model::diagnostic::FileError| {
            e.message.starts_with("could not parse file")
        };
        if !(default.errors.iter()).all(|e| full.errors.contains(e))
            || !(full.errors.iter())
                .filter(|e| !default.errors.contains(e))
                .all(|e| syntax_error(&e))
        {
            failures.extend(differences(&krate.name, &default, &full));
        }
        // Dead files that do not parse are seen only when parsed (see
        // `prefilter`): the default mode skips no file the full one does not.
        if !default.skipped.iter().all(|s| full.skipped.contains(s)) {
            failures.push(format!("{}: skipped only by default", krate.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Items the structure reader reads itself or hands to the walker.
const TRICKY: &[&str] = &[
    // Constants in impls, with string values, `concat!`, non-strings.
    r##"
    pub struct Cuda;
    impl Cuda { pub const NAME: &'static str = "cuda_x"; const N: usize = 3; }
    impl<const N: usize> Trait<N> for [u8; N] where [(); N]: Sized { const K: &str = concat!("a", "b"); }
    const _: () = ();
    pub(crate) static mut COUNT: u32 = 0;
    static GREETING: &str = r#"hi"#;
    const TABLE: [u8; 4] = [1, 2, 3, 4];
    const ITER: Option<&dyn Iterator<Item = u8>> = None;
    const CMP: bool = 1 >= 2;
    const S: &str = String::from("x").as_str();
    const P: &str = (&("p")).to_string();
    static NAMES: [&str; 2] = ["a", "b"];
    const B: &str = { "b" };
    const ARRAY_ITEM: &str = ["c"][0];
    "##,
    // `use` trees: groups, renames, `self`, globs, re-exports.
    r##"
    pub use crate::names::{self, NVIDIA as GPU, sub::*};
    use super::{a::{b, c as d}, e::*};
    pub(crate) use ::std::fmt;
    extern crate alloc as a;
    "##,
    // Modules: declarations with cfgs and paths, inline modules, inner attributes.
    r##"
    #![cfg(feature = "x")]
    #[cfg(unix)] mod unix;
    #[cfg(not(unix))] #[path = "other.rs"] pub mod unix;
    #[path = "a/b.rs"] #[cfg(test)] mod b;
    mod inline {
        #![cfg(test)]
        pub mod deeper { pub const X: &str = "x"; mod file; }
        use super::*;
    }
    mod inline { pub type T = u8; }
    "##,
    // Types, traits, unions, extern blocks, macros the walker does not read.
    r##"
    pub struct A<T: Iterator<Item = u8>>(T) where T: Clone;
    enum E { X = 1, Y }
    union U { a: u8 }
    pub type Alias<'a> = &'a str;
    pub unsafe trait Tr: Sized { const C: u8; type X; fn f(&self) -> u8 { 1 } }
    auto trait Au {}
    trait Al = Clone + Send;
    extern "C" { static ERRNO: i32; fn f(p: *const c::c_char); type Opaque; }
    unsafe extern "C" { pub safe fn g(); }
    macro_rules! m { () => { const HIDDEN: &str = "x"; struct H; use x::y; }; }
    include!("gen.rs");
    const fn cf() -> u32 { 1 }
    async unsafe fn af() {}
    extern "C" fn ef() {}
    impl !Send for A<u8> {}
    "##,
    // Items the walker finds inside code: function bodies, constant values,
    // macro arguments; each such item is handed to syn and the walker.
    r##"
    fn f() {
        use std::io::Write as W;
        const LOCAL: &str = "l";
        struct Local;
        impl Local { const IN_IMPL: &str = "i"; type X = u8; }
        let _ = || { static S: u8 = 0; };
        thread_local! { static T: u8 = 1; }
    }
    impl X { fn g(&self) { enum Inner {} } }
    fn h() -> u8 {
        #[cfg(test)] use a::b as c;
        pub(crate) const C: &str = "c";
        unsafe trait T {}
        struct P(u8);
        type Q = u8;
        static R: u8 = 1;
        let x = [0u8; 3];
        x[0]
    }
    const OUTER: &str = { const INNER: &str = "in"; INNER };
    thread_local! { pub static TL: std::cell::Cell<u8> = std::cell::Cell::new(0); }
    lazy_static::lazy_static! { static ref LS: &'static str = "ls"; }
    bitflags! { pub struct Flags: u32 { const A = 1; } }
    my_items! { pub struct Made; const MADE: &str = "m"; }
    fn g<const N: usize>(p: *const c::c_char) -> &'static str { let _ = 1 / 2; "x" }
    "##,
];

#[test]
fn tricky_items_give_the_walker_s_structure() {
    let vocab = Vocabulary::default();
    for (i, text) in TRICKY.iter().enumerate() {
        match check_file(&format!("TRICKY[{i}]"), text, &vocab) {
            Some(Ok(())) => {}
            Some(Err(e)) => panic!("{e}"),
            None => panic!(
                "TRICKY[{i}] is parsed in full: {:?}",
                prefilter::explain(text, &vocab).err()
            ),
        }
    }
}

fn check_text(text: &str, prefilter: bool) -> Outcome {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lib.rs");
    std::fs::write(&path, text).unwrap();
    let mut input = Input::new(path, "lib.rs".into(), 0);
    input.prefilter = prefilter;
    analyze(vec![input], LINTS)
}

#[test]
fn files_that_do_not_tokenize_fail_in_both_modes() {
    for text in [
        "fn f() { let s = \"unterminated; }",
        "fn f() { g(; }",
        "fn f() {} /* unterminated",
        "const X: &str = r#\"open\";",
        "fn f() { let c = '\\q'; } fn g( {}",
    ] {
        let (default, full) = (check_text(text, true), check_text(text, false));
        assert_eq!(full.errors.len(), 1, "{text}");
        assert_eq!(default.errors, full.errors, "{text}");
    }
}

#[test]
fn a_file_parsed_without_some_bodies_reports_as_if_whole() {
    let twice = "fn b(r: &mut R) { r.register(\"cuda\"); r.register(\"cuda\"); }\n";
    // (text, findings, errors): a suppression comment in a body left out
    // is still read (here it is reported as unused, as with the whole
    // file); an error in what is parsed is the whole file's error.
    let cases = [
        (format!("fn a() {{\n    x();\n}}\n{twice}"), 1, 0),
        (
            format!(
                "fn a() {{\n    // backend-lint: allow(duplicate_registration)\n    x();\n}}\n{twice}"
            ),
            2,
            0,
        ),
        (
            format!("fn a() {{ x(); }}\n{twice}fn c() {{ lower(y) lower(z); }}\n"),
            0,
            1,
        ),
    ];
    for (text, findings, errors) in cases {
        assert!(
            prefilter::without_quiet_bodies(&text, &Vocabulary::default()).is_some(),
            "{text}"
        );
        let (default, full) = (check_text(&text, true), check_text(&text, false));
        assert_eq!(full.diagnostics.len(), findings, "{text}");
        assert_eq!(full.errors.len(), errors, "{text}");
        assert_eq!(default.diagnostics, full.diagnostics, "{text}");
        assert_eq!(default.errors, full.errors, "{text}");
    }
}

/// The per-file pass reads structure only where the crate pass needs it
/// (`engine::per_file_pass`); each package here reports as with every file
/// parsed, and as expected: (files, findings, errors, skipped files).
#[test]
fn packages_read_in_stages_report_as_if_parsed() {
    type Case = (&'static [(&'static str, &'static str)], usize, usize, usize);
    let cases: &[Case] = &[
        // A constant in a file the text check sets aside keys registrations
        // made in another file: its structure is read.
        (
            &[
                ("src/lib.rs", "mod names;\nmod setup;\n"),
                ("src/names.rs", "pub const NAME: &str = \"cu_x\";\n"),
                (
                    "src/setup.rs",
                    "use crate::names::NAME;\npub fn f(r: &mut R) {\n    r.register_backend(NAME, 1);\n    r.register_backend(NAME, 2);\n}\n",
                ),
            ],
            1,
            0,
            0,
        ),
        // Nothing to report anywhere, but a declared file does not tokenize:
        // it fails the run, which needs the `mod` in the file only lexed.
        (
            &[
                ("src/lib.rs", "mod bad;\n"),
                ("src/bad.rs", "fn f() { g(; }\n"),
            ],
            0,
            1,
            0,
        ),
        // The same file, declared nowhere: skipped.
        (
            &[
                ("src/lib.rs", "mod good;\n"),
                ("src/good.rs", "fn f() {}\n"),
                ("src/dead.rs", "fn f() { g(; }\n"),
            ],
            0,
            0,
            1,
        ),
        // An escape the text check cannot rule out: lexed at once.
        (
            &[("src/lib.rs", "pub const S: &str = \"\\x41\";\n")],
            0,
            0,
            0,
        ),
    ];
    for (i, (files, findings, errors, skipped)) in cases.iter().enumerate() {
        let dir = tempfile::tempdir().unwrap();
        common::write(
            dir.path(),
            "Cargo.toml",
            "[package]\nname = \"p\"\nversion = \"0.1.0\"\n",
        );
        let krate = common::Crate {
            name: format!("case {i}"),
            files: files
                .iter()
                .map(|(p, t)| common::write(dir.path(), p, t))
                .collect(),
            config: backend_lint::run::builtin_config(),
        };
        let (default, full) = (run(&krate, true), run(&krate, false));
        let failures = differences(&krate.name, &default, &full);
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        let got = (
            default.diagnostics.len(),
            default.errors.len(),
            default.skipped.len(),
        );
        assert_eq!(
            got,
            (*findings, *errors, *skipped),
            "case {i}: {:?}",
            default.errors
        );
        // The progress bar counts each file once, whichever stage ends it.
        for prefilter in [true, false] {
            let counted = std::sync::atomic::AtomicUsize::new(0);
            let count = |_| {
                counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            };
            analyze_with_progress(common::inputs(&krate, prefilter), LINTS, &count);
            assert_eq!(counted.into_inner(), files.len(), "case {i}");
        }
    }
}

#[test]
fn a_syntax_error_inside_a_skipped_body_is_reported_only_without_the_prefilter() {
    // Documented in `prefilter`: a file with no vocabulary is read for its
    // items; what is wrong inside a body it skips is not seen.
    let text = "pub fn f() { let = ; }\n";
    assert_eq!(check_text(text, false).errors.len(), 1);
    assert!(check_text(text, true).errors.is_empty());
    // With a vocabulary name it is parsed, and the error is reported.
    let text = "pub fn f(r: &mut R) { r.register(\"cuda\"); let = ; }\n";
    assert_eq!(check_text(text, true).errors.len(), 1);
}

/// A value set defined in one package decides comparisons in the others of
/// its configuration, through their fields too (wgpu-types' `Backend` in
/// wgpu-core), in both modes; a package declaring a type of that name
/// itself is left to its own.
#[test]
fn value_sets_are_shared_by_the_packages_of_a_configuration() {
    let dir = tempfile::tempdir().unwrap();
    let package = |name: &str| format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\n");
    let files = [
        ("types/Cargo.toml", package("types")),
        ("types/src/lib.rs", "mod backend;\npub use backend::{AdapterInfo, Backend};\n".into()),
        (
            "types/src/backend.rs",
            "pub enum Backend { Vulkan, Metal, Gl }\nimpl Backend {\n    pub fn to_str(self) -> &'static str {\n        match self { Self::Vulkan => \"vulkan\", Self::Metal => \"metal\", Self::Gl => \"gl\" }\n    }\n}\npub struct AdapterInfo {\n    pub name: String,\n    pub backend: Backend,\n}\n".into(),
        ),
        ("core/Cargo.toml", package("core")),
        ("core/src/lib.rs", "mod device;\nmod gl;\nmod surface;\n".into()),
        ("core/src/surface.rs", "pub struct Surface {\n    backend: wgt::Backend,\n}\nimpl Surface {\n    pub fn is_vulkan(&self) -> bool {\n        self.backend.to_str() == \"vk\"\n    }\n}\n".into()),
        ("core/src/device.rs", "pub fn shading(b: wgt::Backend) -> u8 {\n    if b.to_str() == \"d3d12\" { 1 } else { 0 }\n}\n".into()),
        ("core/src/gl.rs", "pub fn is_gl(info: &wgt::AdapterInfo) -> bool {\n    info.backend.to_str() == \"opengl\"\n}\n".into()),
        ("other/Cargo.toml", package("other")),
        ("other/src/lib.rs", "pub struct Backend(String);\nimpl Backend {\n    pub fn to_str(&self) -> &str { &self.0 }\n}\npub fn is_gl(b: &Backend) -> bool { b.to_str() == \"opengl\" }\n".into()),
    ];
    for (path, text) in &files {
        common::write(dir.path(), path, text);
    }
    let default = workspace_in_both_modes(dir.path());
    let found: Vec<(String, &str)> = (default.diagnostics.iter())
        .map(|d| {
            let file = default.sources.get(d.span.file);
            (file.display.replace('\\', "/"), d.message.as_str())
        })
        .collect();
    assert_eq!(
        found,
        [
            (
                "core/src/device.rs".to_string(),
                "`b.to_str()` is compared with `\"d3d12\"`, which `Backend::to_str` never returns"
            ),
            (
                "core/src/gl.rs".to_string(),
                "`info.backend.to_str()` is compared with `\"opengl\"`, which `Backend::to_str` never returns"
            ),
            (
                "core/src/surface.rs".to_string(),
                "`self.backend.to_str()` is compared with `\"vk\"`, which `Backend::to_str` never returns"
            ),
        ]
    );
}

/// A registration function learned in one package is used by the packages
/// that depend on it (by its name in their `Cargo.toml`, renamed or not),
/// and by no other: a package that cannot call it is not read again for its
/// name, and its own calls of a function so named are not registrations
/// (issue 28: tokio's files were parsed again for wasmtime's `define`).
#[test]
fn a_learned_function_reaches_only_the_packages_depending_on_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let package = |name: &str, deps: &str| {
        format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\n\n[dependencies]\n{deps}")
    };
    let linker = r#"use std::collections::HashMap;
pub struct Linker { map: HashMap<(String, String), u32> }
impl Linker {
    fn insert(&mut self, key: (String, String), f: u32) -> Result<(), String> {
        if self.map.contains_key(&key) {
            return Err("defined twice".into());
        }
        self.map.insert(key, f);
        Ok(())
    }
    pub fn define(&mut self, module: &str, name: &str, f: u32) -> Result<(), String> {
        self.insert((module.to_string(), name.to_string()), f)
    }
}
"#;
    let caller = "pub fn setup(l: &mut wl::Linker) {\n    l.define(\"env\", \"abort\", 1).unwrap();\n    l.define(\"env\", \"abort\", 2).unwrap();\n}\n";
    let files = [
        ("linker/Cargo.toml", package("linker", "")),
        ("linker/src/lib.rs", linker.to_string()),
        // Renamed: its name in the code is `wl`.
        (
            "app/Cargo.toml",
            package(
                "app",
                "wl = { package = \"linker\", path = \"../linker\" }\n",
            ),
        ),
        ("app/src/lib.rs", caller.to_string()),
        // Through another package that depends on it.
        (
            "tool/Cargo.toml",
            package("tool", "app = { path = \"../app\" }\n"),
        ),
        ("tool/src/lib.rs", caller.to_string()),
        ("other/Cargo.toml", package("other", "serde = \"1\"\n")),
        ("other/src/lib.rs", caller.to_string()),
        // A dev-dependency is its package's own, not its dependents'.
        (
            "tests/Cargo.toml",
            package("tests", "") + "\n[dev-dependencies]\nlinker = { path = \"../linker\" }\n",
        ),
        ("tests/src/lib.rs", "pub fn t() {}\n".to_string()),
        (
            "user/Cargo.toml",
            package("user", "tests = { path = \"../tests\" }\n"),
        ),
        ("user/src/lib.rs", caller.to_string()),
    ];
    for (path, text) in &files {
        common::write(dir.path(), path, text);
    }
    let default = workspace_in_both_modes(dir.path());
    let mut found: Vec<String> = (default.diagnostics.iter())
        .map(|d| default.sources.get(d.span.file).display.replace('\\', "/"))
        .collect();
    found.dedup();
    assert_eq!(found, ["app/src/lib.rs", "tool/src/lib.rs"]);
}

/// A `register*` method whose body is in another package of the workspace
/// decides its calls there as in its own package, when the receiver's type
/// is known: burn-router's `CustomOpRegistry::register` replaces by design,
/// so burn-remote's default-then-override is quiet, and an unconditional
/// second registration is told that the first never takes effect. A type of
/// that name declared in the calling package is its own.
#[test]
fn a_body_in_another_package_decides_its_calls() {
    let dir = tempfile::tempdir().unwrap();
    let package = |name: &str, deps: &str| {
        format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\n\n[dependencies]\n{deps}")
    };
    let router = r#"use std::collections::HashMap;
pub type Handler = fn(u32) -> u32;
#[derive(Default)]
pub struct OpRegistry { ops: HashMap<String, Handler> }
impl OpRegistry {
    /// Replaces the handler of `id`.
    pub fn register(&mut self, id: &str, op: Handler) {
        self.ops.insert(id.to_string(), op);
    }
}
"#;
    let remote = r#"use router::{Handler, OpRegistry};
fn generic(x: u32) -> u32 { x }
pub fn overridden(ops: &mut OpRegistry, fused: Option<Handler>) {
    ops.register("scale", generic);
    if let Some(fused) = fused {
        ops.register("scale", fused);
    }
}
pub fn twice(ops: &mut OpRegistry) {
    ops.register("shift", generic);
    ops.register("shift", generic);
}
"#;
    // Its own `OpRegistry`, whose `register` hands the key to a function
    // not in reach (which may reject).
    let other = r#"pub struct OpRegistry;
impl OpRegistry { pub fn register(&mut self, id: &str, op: fn(u32) -> u32) { ffi::register_op(id, op) } }
fn generic(x: u32) -> u32 { x }
pub fn overridden(ops: &mut OpRegistry, fused: Option<fn(u32) -> u32>) {
    ops.register("scale", generic);
    if let Some(fused) = fused {
        ops.register("scale", fused);
    }
}
"#;
    let files = [
        ("router/Cargo.toml", package("router", "")),
        ("router/src/lib.rs", router.to_string()),
        (
            "remote/Cargo.toml",
            package("remote", "router = { path = \"../router\" }\n"),
        ),
        ("remote/src/lib.rs", remote.to_string()),
        (
            "other/Cargo.toml",
            package("other", "router = { path = \"../router\" }\n"),
        ),
        ("other/src/lib.rs", other.to_string()),
    ];
    for (path, text) in &files {
        common::write(dir.path(), path, text);
    }
    let default = workspace_in_both_modes(dir.path());
    let found: Vec<(String, usize, bool)> = (default.diagnostics.iter())
        .map(|d| {
            let file = default.sources.get(d.span.file);
            let line = file.line(d.span.start);
            let replaces = (d.help.as_deref()).is_some_and(|h| h.contains("never takes effect"));
            (file.display.replace('\\', "/"), line, replaces)
        })
        .collect();
    assert_eq!(
        found,
        [
            ("other/src/lib.rs".to_string(), 7, false),
            ("remote/src/lib.rs".to_string(), 11, true),
        ]
    );
}

/// A doc comment blanked for the parse is still in the file a fix edits:
/// the removal of a statement followed by one on its line is the statement
/// alone, and its text is the file's.
#[test]
fn a_blanked_doc_is_no_blank_for_a_removal() {
    let text = "/// S.\nfn setup(r: &mut Registry) {\n    r.register_backend(\"cuda\", a);\n    r.register_backend(\"cuda\", a); /// H.\n    fn h() {}\n}\n";
    let vocab = Vocabulary::default();
    let parseable = backend_lint::syntax::parse::parseable_text(text);
    if prefilter::skim_for_parse(&parseable, &vocab).is_none() {
        return; // No AVX2: nothing is blanked.
    }
    assert!(
        matches!(prefilter::skim_for_parse(&parseable, &vocab), Some(Some(t)) if !t.contains("/// H.")),
        "the doc on `h` is blanked for the parse"
    );
    let facts = parse_and_extract(0, text, &vocab).expect("parses");
    let second = facts.registrations[1]
        .statement
        .as_ref()
        .expect("removable");
    assert_eq!(
        &text[second.removal.start..second.removal.end],
        "r.register_backend(\"cuda\", a);"
    );
    assert_eq!(second.text, "r.register_backend(\"cuda\", a);");
}

/// Vocabularies whose sets overlap, as a user may configure them and as
/// the learning adds to them: a name both a source and a rejection word, a
/// canonicalizer and a learned registration, a lowering call and a backend
/// setter.
const OVERLAPPING: &str = r#"
[platforms]
extend-sources = ["contains", "lower*", "Occupied"]
extend-canonicalizers = ["insert", "platforms"]
[registration]
extend-unregister = ["contains", "is_some", "take_all"]
extend-backends = ["platforms", "add_backend"]
extend-guards = ["has_key", "is_none"]
extend-run-once = ["once_do"]
[lowering]
extend-calls = ["with_backend", "contains_key", "go*"]
extend-backend-setters = ["platform*", "set_be"]
extend-backend-requests = ["fetch_be", "insert"]
"#;

/// The fast path knows of the walk only what its collectors declare
/// (`analysis::extract::triggers`). Under the default vocabulary and
/// overlapping ones, with functions, switch fields and switches learned,
/// every name of every set in every place it can stand: a file the fast
/// path reads for its structure has no fact a finding can come from and
/// the walker's structure, and bodies left out change no fact.
#[test]
fn the_declared_starts_suffice_under_overlapping_vocabularies() {
    use backend_lint::config::{CallReceiver, Config, LearnedFunction, Overrides};
    let dir = std::env::temp_dir().join(format!("backend-lint-vocab-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join("backend-lint.toml");
    std::fs::write(&path, OVERLAPPING).expect("written");
    let configured = (Config::load(&path, &Overrides::default()).expect("valid"))
        .expect("found")
        .vocab;
    let _ = std::fs::remove_dir_all(&dir);
    let learned = |v: &Vocabulary| {
        let function = |name: &str| LearnedFunction {
            name: name.into(),
            key: vec![0],
            receiver: CallReceiver::Written,
            arity: 2,
            switch: None,
            constants: Vec::new(),
            self_type: None,
            returns_self: false,
            key_field: None,
            wraps: None,
        };
        v.with_learned(
            &[
                function("insert"),
                function("add_op"),
                function("platforms"),
            ],
            &[
                "contains".into(),
                "platforms".into(),
                "allow_shadowing".into(),
            ],
            &["is_some".into(), "allow_dup".into(), "platforms".into()],
        )
    };
    let default = Vocabulary::default();
    let vocabularies = [learned(&default), learned(&configured), default, configured];
    let names = [
        "platform",
        "platforms",
        "platform_name",
        "register",
        "register_backend",
        "registered_x",
        "register_lowering",
        "lower",
        "lower_bound",
        "contains",
        "contains_key",
        "insert",
        "is_some",
        "is_none",
        "Occupied",
        "with_backend",
        "get_backend",
        "canonicalize_platform",
        "unregister",
        "take_all",
        "add_backend",
        "has_key",
        "once_do",
        "go",
        "gone",
        "set_be",
        "fetch_be",
        "add_op",
        "allow_shadowing",
        "allow_dup",
        "remove",
        "deregister",
    ];
    let shapes = [
        "fn f() { let p = NAME; if p == \"gpu\" {} }",
        "fn f(x: X) { if x.NAME() == \"gpu\" {} x.NAME(); }",
        "fn f(r: &mut R) { r.NAME(\"cuda\", 1); r.NAME(\"cuda\", 2); }",
        "fn f() { NAME(\"cuda\", 1); NAME(\"cuda\", 2); }",
        "fn f(ctx: &mut C) { ctx.NAME(get_backend(\"cpu\")); lower(&ctx, &[\"gpu\"]); }",
        "fn f(ctx: &mut C) { ctx.with_backend(NAME(\"cpu\")); ctx.NAME(&[\"gpu\"]); }",
        "struct S { NAME: u8 } fn f(s: S) { if s.NAME == \"gpu\" {} }",
        "fn f(&mut self, k: String) -> Result<(), E> { if self.m.NAME(&k) { return Err(e); } self.m.insert(k, 1); Ok(()) }",
        "fn f(&mut self, k: String) { if !self.NAME && self.m.contains_key(&k) { return; } self.m.insert(k, 1); }",
        "macro_rules! m { ($c:expr) => { if $c.NAME == \"gpu\" {} } } fn g(c: C) { m!(c); }",
        "fn NAME(d: &D) -> String { d.platform() } fn g(d: &D) { if NAME(d) == \"gpu\" {} }",
        "fn f(d: &D) { assert!(d.NAME() == \"gpu\"); }",
        "fn f(r: &mut R) { if !r.NAME(\"cuda\") { r.register(\"cuda\", 1); } r.register(\"cuda\", 2); }",
    ];
    let mut checked = 0;
    for vocab in &vocabularies {
        for name in names {
            for shape in shapes {
                let text = shape.replace("NAME", name);
                if let Some(result) = check_file(&text, &text, vocab) {
                    result.unwrap();
                    checked += 1;
                }
                if let Some(result) = check_bodies(&text, &text, vocab) {
                    result.unwrap();
                }
            }
        }
    }
    assert!(
        checked > 200,
        "only {checked} texts read for their structure"
    );
}

/// The report of the workspace at `dir`, with the prefilter; the same as
/// the report without it.
fn workspace_in_both_modes(dir: &std::path::Path) -> Outcome {
    let report = |prefilter: bool| {
        let (mut inputs, errors) = backend_lint::run::discover::collect(&[dir.to_path_buf()], dir);
        assert!(errors.is_empty());
        for input in &mut inputs {
            input.prefilter = prefilter;
        }
        analyze(inputs, LINTS)
    };
    let (default, full) = (report(true), report(false));
    let failures = differences("workspace", &default, &full);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    default
}
