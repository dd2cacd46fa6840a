//! The per-file pass's cache (`run::cache`, issue 30): the language server
//! analyses a package at each keystroke, taking the unchanged files' facts
//! from the run before. What it reports must be what a run without the
//! cache reports, whatever changed: the buffer, a file on disk.

use std::path::Path;
use std::sync::Arc;

use backend_lint::lints::LINTS;
use backend_lint::run::cache::FileCache;
use backend_lint::run::{Input, Outcome, analyze, analyze_cached, discover};

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

/// What a report shows of each finding: lint, file, place, message.
fn shown(outcome: &Outcome) -> Vec<(String, String, usize, usize, String)> {
    (outcome.diagnostics.iter())
        .map(|d| {
            let file = outcome.sources.get(d.span.file);
            let name = file.path.file_name().unwrap().to_string_lossy().to_string();
            let labels: Vec<_> = d.labels.iter().map(|l| l.span.start).collect();
            let message = format!("{} {labels:?}", d.message);
            (
                d.lint.name().to_string(),
                name,
                d.span.start,
                d.span.end,
                message,
            )
        })
        .collect()
}

fn inputs(dir: &Path, lib: Option<&str>) -> Vec<Input> {
    let (mut inputs, errors) = discover::collect(&[dir.to_path_buf()], dir);
    assert!(errors.is_empty());
    for input in &mut inputs {
        if input.path.ends_with("lib.rs") {
            input.text = lib.map(Arc::from);
        }
    }
    inputs
}

#[test]
fn a_cached_run_reports_what_an_uncached_one_does_and_reads_only_what_changed() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    write(
        dir,
        "lib.rs",
        "mod other;\nmod plain;\npub fn register_backend(_n: &str, _f: fn()) {}\npub fn cpu() {}\n\
         pub fn init() { register_backend(\"tpu\", cpu); }\n",
    );
    write(
        dir,
        "other.rs",
        "pub fn more() { crate::register_backend(\"cpu\", crate::cpu); }\n",
    );
    write(dir, "plain.rs", "pub fn nothing() -> u32 { 1 }\n");
    let cache = FileCache::default();
    let first = analyze_cached(inputs(dir, None), LINTS, &|_| {}, Some(&cache));
    assert_eq!(shown(&first), shown(&analyze(inputs(dir, None), LINTS)));
    assert!(shown(&first).is_empty());
    assert_eq!(cache.hits(), 0);

    // The buffer of lib.rs registers `cpu` too: a duplicate in other.rs.
    let edited = "mod other;\nmod plain;\npub fn register_backend(_n: &str, _f: fn()) {}\n\
                  pub fn cpu() {}\npub fn init() { register_backend(\"cpu\", cpu); }\n";
    let second = analyze_cached(inputs(dir, Some(edited)), LINTS, &|_| {}, Some(&cache));
    let uncached = analyze(inputs(dir, Some(edited)), LINTS);
    assert_eq!(shown(&second), shown(&uncached));
    assert_eq!(shown(&second)[0].0, "duplicate_registration");
    // other.rs and plain.rs were surveyed before (2), other.rs parsed (1)
    // and plain.rs read for its structure (1); lib.rs was read again.
    assert_eq!(cache.hits(), 4);

    // other.rs changes on disk (a checkout): read again, not taken.
    write(
        dir,
        "other.rs",
        "pub fn more() { crate::register_backend(\"gpu\", crate::cpu); }\n",
    );
    let third = analyze_cached(inputs(dir, Some(edited)), LINTS, &|_| {}, Some(&cache));
    assert_eq!(
        shown(&third),
        shown(&analyze(inputs(dir, Some(edited)), LINTS))
    );
    assert!(
        !shown(&third)
            .iter()
            .any(|s| s.0 == "duplicate_registration")
    );
}

#[test]
fn what_a_package_learns_is_cached_only_while_it_learns_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    // `add` wraps the registration, learned from the code (issue 19);
    // other.rs calls it twice with one key.
    let wrapper = "mod other;\npub fn register_backend(_n: &str, _f: fn()) {}\npub fn cpu() {}\n\
                   pub fn add(name: &str) { register_backend(name, cpu); }\n";
    write(dir, "lib.rs", wrapper);
    write(
        dir,
        "other.rs",
        "pub fn more() { crate::add(\"cpu\"); }\npub fn again() { crate::add(\"cpu\"); }\n",
    );
    let no_wrapper = "mod other;\npub fn register_backend(_n: &str, _f: fn()) {}\npub fn cpu() {}\n\
                      pub fn add(name: &str) { let _ = name; }\n";
    let cache = FileCache::default();
    let mut hits = 0;
    // The wrapper, taken away, and back: each run as an uncached one.
    for (round, lib) in [wrapper, wrapper, no_wrapper, no_wrapper, wrapper, wrapper]
        .into_iter()
        .enumerate()
    {
        let cached = analyze_cached(inputs(dir, Some(lib)), LINTS, &|_| {}, Some(&cache));
        let uncached = analyze(inputs(dir, Some(lib)), LINTS);
        assert_eq!(shown(&cached), shown(&uncached), "round {round}");
        let duplicate = shown(&cached)
            .iter()
            .any(|s| s.0 == "duplicate_registration");
        assert_eq!(duplicate, lib == wrapper, "round {round}");
        hits = cache.hits();
    }
    assert!(hits > 0);
}

/// A name learned (here `add`, a wrapper of the registration) is searched
/// for only in the files whose first read saw it called: the others are
/// not read again (issue 29: a dependency's singletons cost every file of
/// every dependent a second read).
#[test]
fn a_file_calling_no_learned_name_is_not_read_again() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let lib = "mod other;\nmod plain;\npub fn register_backend(_n: &str, _f: fn()) {}\n\
               pub fn cpu() {}\npub fn add(name: &str) { register_backend(name, cpu); }\n";
    write(dir, "lib.rs", lib);
    write(
        dir,
        "other.rs",
        "pub fn more() { crate::add(\"cpu\"); }\npub fn again() { crate::add(\"cpu\"); }\n",
    );
    // Named, not called: in a comment, a `use`, a path to a function.
    write(
        dir,
        "plain.rs",
        "// add\nuse crate::add;\npub fn nothing() -> fn(&str) { add }\n",
    );
    let cache = FileCache::default();
    let cached = analyze_cached(inputs(dir, Some(lib)), LINTS, &|_| {}, Some(&cache));
    assert_eq!(
        shown(&cached),
        shown(&analyze(inputs(dir, Some(lib)), LINTS))
    );
    assert!(
        shown(&cached)
            .iter()
            .any(|s| s.0 == "duplicate_registration"),
        "{:?}",
        shown(&cached)
    );
    // lib.rs (`fn add(`) and other.rs, not plain.rs.
    assert_eq!(cache.searches(), 2);
}

/// A file only lexed, read again in learning for a call of a singleton
/// alone (issue 29), gives `initialized_twice` its functions, not facts the
/// survey found quiet (here a normalized comparison, `trim() != REV`, that
/// the file's constant shows possible): its crate is not read again for
/// its structure (the other files of syn's, tracing's tests were, for
/// their calls of `build_global`), nor after a second round reads it for
/// the wrapper it defines (`start`, learned from it).
#[test]
fn a_file_read_again_for_a_singleton_s_call_alone_needs_no_structure() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let lib = "mod other;\nmod plain;\nuse std::sync::atomic::{AtomicUsize, Ordering};\n\
               static STATE: AtomicUsize = AtomicUsize::new(0);\npub struct E;\n\
               pub fn init() -> Result<(), E> {\n    \
               match STATE.compare_exchange(0, 1, Ordering::Acquire, Ordering::Relaxed) {\n        \
               Ok(_) => Ok(()),\n        Err(_) => Err(E),\n    }\n}\n";
    write(dir, "lib.rs", lib);
    write(
        dir,
        "other.rs",
        "const REV: &str = \"abc\";\n\
         pub fn start(s: &str) -> bool {\n    crate::init().expect(\"once\");\n    s.trim() != REV\n}\n",
    );
    write(dir, "plain.rs", "pub fn nothing() -> u32 { 1 }\n");
    let cache = FileCache::default();
    let cached = analyze_cached(inputs(dir, Some(lib)), LINTS, &|_| {}, Some(&cache));
    assert_eq!(
        shown(&cached),
        shown(&analyze(inputs(dir, Some(lib)), LINTS))
    );
    assert!(shown(&cached).is_empty(), "{:?}", shown(&cached));
    // Neither plain.rs nor any other file is read for its structure.
    assert_eq!(cache.structure_reads(), 0);
}

#[test]
fn learnings_searches_are_kept_for_the_files_as_they_were() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    // `add` wraps the registration (learned, issue 19): each round of
    // learning searches the package's files for the names it learned.
    let lib = "mod other;\nmod plain;\npub fn register_backend(_n: &str, _f: fn()) {}\n\
               pub fn cpu() {}\npub fn add(name: &str) { register_backend(name, cpu); }\n";
    write(dir, "lib.rs", lib);
    write(
        dir,
        "other.rs",
        "pub fn more() { crate::add(\"cpu\"); }\npub fn again() { crate::add(\"gpu\"); }\n",
    );
    write(dir, "plain.rs", "pub fn nothing() -> u32 { 1 }\n");
    let cache = FileCache::default();
    let run = |lib: &str| {
        let cached = analyze_cached(inputs(dir, Some(lib)), LINTS, &|_| {}, Some(&cache));
        assert_eq!(
            shown(&cached),
            shown(&analyze(inputs(dir, Some(lib)), LINTS))
        );
        shown(&cached)
    };
    assert!(run(lib).is_empty());
    let searched = cache.searches();
    // lib.rs and other.rs, which call `add` (plain.rs does not).
    assert!(searched >= 2, "{searched}");
    // Again, nothing changed: no file is read to be searched.
    assert!(run(lib).is_empty());
    assert_eq!(cache.searches(), searched);
    // The buffer changes (a comment): only it is searched again.
    let edited = format!("{lib}// more\n");
    assert!(run(&edited).is_empty());
    let after_edit = cache.searches();
    assert!(
        after_edit > searched && after_edit - searched < 2,
        "{after_edit}"
    );
    // other.rs changes on disk: it is searched again, and the duplicate
    // its new text makes is found.
    write(
        dir,
        "other.rs",
        "pub fn more() { crate::add(\"cpu\"); }\npub fn again() { crate::add(\"cpu\"); }\n",
    );
    let found = run(&edited);
    assert!(cache.searches() > after_edit);
    assert!(
        found.iter().any(|s| s.0 == "duplicate_registration"),
        "{found:?}"
    );
}

/// The module tree kept from the run before (the crate's modules, `use`s
/// and constants the same) resolves as one built anew: a constant added,
/// changed, a body edited, a function added, each run compared with a run
/// without the cache.
#[test]
fn a_kept_module_tree_resolves_as_a_new_one() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    write(dir, "names.rs", "pub const A: &str = \"cuda\";\n");
    let lib = |extra: &str| {
        format!(
            "mod names;\npub fn register_backend(_n: &str, _f: fn()) {{}}\npub fn cpu() {{}}\n\
             pub fn init() {{ register_backend(names::A, cpu); }}\n{extra}"
        )
    };
    write(dir, "lib.rs", &lib(""));
    let cache = FileCache::default();
    let steps = [
        "",
        "const C: &str = \"cuda\";\npub fn more() { register_backend(C, cpu); }\n",
        "const C: &str = \"cuda\";\npub fn more() { let _x = 1; register_backend(C, cpu); }\n",
        "const C: &str = \"tpu\";\npub fn more() { let _x = 1; register_backend(C, cpu); }\n",
        "const C: &str = \"tpu\";\npub fn more() { register_backend(C, cpu); }\npub fn f() {}\n",
        "pub fn more() { register_backend(names::A, cpu); }\npub fn f() {}\n",
        "pub fn more() { use names::A as C; register_backend(C, cpu); }\npub fn f() {}\n",
    ];
    let mut found = Vec::new();
    for extra in steps {
        let text = lib(extra);
        let cached = analyze_cached(inputs(dir, Some(&text)), LINTS, &|_| {}, Some(&cache));
        let fresh = analyze(inputs(dir, Some(&text)), LINTS);
        assert_eq!(shown(&cached), shown(&fresh), "{extra}");
        found.push(fresh.diagnostics.len());
    }
    // The steps make the duplicate appear and go.
    assert_eq!(found, [0, 1, 1, 0, 0, 1, 1]);
}

/// A file read again in two rounds of learning (other.rs: it calls `add`,
/// learned in the first round, and defines `add_twice`, learned from it in
/// the second) is kept as each round read it: a run where nothing changed
/// parses nothing again (each keystroke on torsh parsed three files again,
/// seven times, as the rounds took each other's place in the cache). A
/// buffer edit that changes what is learned (`add` no longer registers)
/// and its undoing give the uncached run's findings at each step.
#[test]
fn a_file_read_in_several_rounds_of_learning_is_parsed_once() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let wrapper = "mod other;\nmod plain;\npub fn register_backend(_n: &str, _f: fn()) {}\n\
                   pub fn cpu() {}\npub fn add(name: &str) { register_backend(name, cpu); }\n";
    let no_wrapper = "mod other;\nmod plain;\npub fn register_backend(_n: &str, _f: fn()) {}\n\
                      pub fn cpu() {}\npub fn add(name: &str) { let _ = name; }\n";
    write(dir, "lib.rs", wrapper);
    write(
        dir,
        "other.rs",
        "pub fn add_twice(name: &str) { crate::add(name); }\n\
         pub fn more() { add_twice(\"cpu\"); }\npub fn again() { add_twice(\"cpu\"); }\n",
    );
    write(dir, "plain.rs", "pub fn nothing() -> u32 { 1 }\n");
    let cache = FileCache::default();
    let run = |lib: &str| {
        let before = cache.made();
        let cached = analyze_cached(inputs(dir, Some(lib)), LINTS, &|_| {}, Some(&cache));
        let uncached = analyze(inputs(dir, Some(lib)), LINTS);
        assert_eq!(shown(&cached), shown(&uncached));
        let duplicate = shown(&cached)
            .iter()
            .any(|s| s.0 == "duplicate_registration");
        (duplicate, cache.made() - before)
    };
    let (duplicate, first) = run(wrapper);
    assert!(duplicate);
    assert!(first > 0);
    assert_eq!(run(wrapper), (true, 0));
    assert!(!run(no_wrapper).0);
    assert_eq!(run(no_wrapper), (false, 0));
    // Back: other.rs's reads with what each round learned are kept.
    let (duplicate, back) = run(wrapper);
    assert!(duplicate);
    assert!(back < first, "{back} of {first}");
    assert_eq!(run(wrapper), (true, 0));
}
