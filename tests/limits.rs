//! Hostile shapes (issue 17, section 5): inputs that cost the square (or
//! the cube) of their size before, each at a size that did not finish in
//! minutes then, checked here for the right findings. No timing is
//! asserted: how long each shape takes is measured by `benches/shapes.rs`
//! (docs/performance.md).

mod common;

use std::path::Path;

use backend_lint::lints::LINTS;
use backend_lint::run::{Input, Outcome, analyze};
use common::write;

/// Both modes over the files of `dir`: the findings, as `lint@line`, the
/// same in both.
fn findings(dir: &Path) -> Vec<String> {
    let (inputs, errors) = backend_lint::run::discover::collect(&[dir.to_path_buf()], dir);
    assert!(errors.is_empty(), "{errors:?}");
    let run = |prefilter: bool| -> Vec<String> {
        let inputs: Vec<Input> = (inputs.iter().cloned())
            .map(|i| Input { prefilter, ..i })
            .collect();
        let outcome: Outcome = analyze(inputs, LINTS);
        assert!(outcome.errors.is_empty(), "{:?}", outcome.errors);
        (outcome.diagnostics.iter())
            .map(|d| {
                let source = outcome.sources.get(d.span.file);
                format!(
                    "{}@{}:{}",
                    d.lint,
                    source.display,
                    source.line(d.span.start)
                )
            })
            .collect()
    };
    let default = run(true);
    assert_eq!(default, run(false), "the two modes differ");
    default
}

/// 10,000 `allow-file` lines (each once walked down the run of comment
/// lines below it, comparing every comment: the cube of their number) and
/// 10,000 `allow` lines stacked over one registration (each looked up for
/// every directive).
#[test]
fn ten_thousand_suppression_lines() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = "// backend-lint: allow-file(duplicate_registration)\n".repeat(10_000);
    text += "pub fn init(r: &mut Registry) {\n    r.register_backend(\"cuda\", a);\n";
    text += &"    // backend-lint: allow(duplicate_registration) -- both kept\n".repeat(10_000);
    text += "    r.register_backend(\"cuda\", b);\n}\n";
    write(dir.path(), "lib.rs", text);
    // The duplicate is covered by every directive: none is unused.
    assert_eq!(findings(dir.path()), Vec::<String>::new());
}

/// 20,000 different keys registered in one function, and one again: each
/// registration was compared with every one before it.
#[test]
fn twenty_thousand_registrations_in_one_function() {
    let dir = tempfile::tempdir().unwrap();
    let calls: String = (0..20_000)
        .map(|i| format!("    r.register_backend(\"key{i}\", make);\n"))
        .collect();
    let text = format!(
        "pub fn init(r: &mut Registry) {{\n{calls}    r.register_backend(\"KEY7\", make);\n}}\n"
    );
    write(dir.path(), "lib.rs", text);
    assert_eq!(
        findings(dir.path()),
        ["duplicate_registration@lib.rs:20002"]
    );
}

/// 10,000 inline modules, each registering a key of its own, and one module
/// registering a key again: each module's path was looked for among all the
/// scopes before it, and each registration compared with all before it.
#[test]
fn ten_thousand_inline_modules_registering() {
    let dir = tempfile::tempdir().unwrap();
    let mods: String = (0..10_000)
        .map(|i| {
            format!("mod m{i} {{ pub fn init() {{ register_backend(\"key{i}\", make); }} }}\n")
        })
        .collect();
    let again = "mod again { pub fn init() { register_backend(\"key9\", make); } }\n";
    write(dir.path(), "lib.rs", mods + again);
    assert_eq!(
        findings(dir.path()),
        ["duplicate_registration@lib.rs:10001"]
    );
}

/// 20,000 small files of one crate (no `Cargo.toml`: all of one folder tree
/// form one crate), each registering a key of its own, and one registering
/// a key again: every fact of a registration was found by searching the
/// crate's list of files.
#[test]
fn twenty_thousand_files_registering() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..20_000 {
        let text = format!("pub fn init() {{ register_backend(\"key{i}\", make); }}\n");
        write(dir.path(), &format!("d{}/f{i}.rs", i / 1000), text);
    }
    let again = "pub fn again() { register_backend(\"key3\", make); }\n";
    write(dir.path(), "z/again.rs", again);
    assert_eq!(
        findings(dir.path()),
        ["duplicate_registration@z/again.rs:1"]
    );
}

/// A file of 3,000 functions with return types (and enough `-` that the
/// count of bytes does not prove it shallow) was not analysed: each `->`
/// of a top-level item was taken for a link of one `fn() -> fn() -> ..`
/// chain, past the 2,000 links the parser is given.
#[test]
fn three_thousand_functions_with_return_types() {
    let dir = tempfile::tempdir().unwrap();
    let functions: String = (0..3_000)
        .map(|i| format!("pub fn f{i}(x: u32) -> u32 {{ x - 1 }}\n"))
        .collect();
    let again = "pub fn init(r: &mut Registry) { r.register_backend(\"a\", m); r.register_backend(\"a\", m); }\n";
    write(dir.path(), "lib.rs", functions + again);
    assert_eq!(findings(dir.path()), ["duplicate_registration@lib.rs:3001"]);
}

/// 5,000 findings on one line of 160 KB, in every format: each column was
/// counted from the line's start, each fingerprint hashed the line, the
/// rustc format copied the line into every span, and the human report's
/// layout panicked past 65,535 columns.
#[test]
fn five_thousand_findings_on_one_long_line_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let calls = "register_backend(\"cuda\", make); ".repeat(5_000);
    write(
        dir.path(),
        "lib.rs",
        format!("pub fn init() {{ {calls}}}\n"),
    );
    for format in [
        "human", "short", "json", "sarif", "github", "gitlab", "rustc",
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_backend-lint"))
            .current_dir(dir.path())
            .args(["check", ".", "--color", "never", "--format", format])
            .env_remove("GITHUB_STEP_SUMMARY")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{format}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout.len() < 50_000_000,
            "{format}: {} bytes",
            stdout.len()
        );
        let at_column = |column: usize| match format {
            "short" => format!("lib.rs:1:{column}:"),
            "human" => format!("lib.rs:1:{column};"),
            _ => String::new(),
        };
        // The last finding, at its column (the 5,000th call).
        assert!(
            stdout.contains(&at_column(16 + 4_999 * 32 + 18)),
            "{format}"
        );
    }
}

/// 5,000 registrations of one key, each under a `cfg` that excludes every
/// other (one `target_os` each), then one under none: every pair was
/// compared. Only the last collides, with the first.
#[test]
fn five_thousand_registrations_under_exclusive_cfgs() {
    let dir = tempfile::tempdir().unwrap();
    let body: String = (0..5_000)
        .map(|i| format!("    #[cfg(target_os = \"os{i}\")]\n    register_backend(\"cuda\", a);\n"))
        .collect();
    let text = format!("pub fn init() {{\n{body}    register_backend(\"cuda\", b);\n}}\n");
    write(dir.path(), "lib.rs", text);
    assert_eq!(
        findings(dir.path()),
        ["duplicate_registration@lib.rs:10002"]
    );
}

/// Crates copied without their `Cargo.toml`s: each folder that cargo's
/// layout makes a crate root (`src/lib.rs`, `lib.rs`, `main.rs`) is a crate
/// of its own, and the files under no such folder one more. A key
/// registered in each is a duplicate within each, none across them: all
/// loose files were one crate, whose every file was read when any could be
/// reported (the registry's crates without manifests: 243 MiB, 28 MiB with).
#[test]
fn loose_crates_are_crates_by_layout() {
    let dir = tempfile::tempdir().unwrap();
    let register = |key: &str| format!("pub fn init() {{ register_backend(\"{key}\", make); }}\n");
    let root = |key: &str| format!("mod more;\n{}", register(key));
    // A package's layout, a `src` folder and tests beside it.
    write(dir.path(), "a/src/lib.rs", root("cuda"));
    write(dir.path(), "a/src/more.rs", register("cuda"));
    write(dir.path(), "a/tests/t.rs", register("rocm"));
    // A crate root that holds its modules itself.
    write(dir.path(), "b/lib.rs", root("cuda"));
    write(dir.path(), "b/more.rs", register("rocm"));
    // A binary crate inside a folder of loose files.
    write(dir.path(), "loose/tool/main.rs", root("rocm"));
    write(dir.path(), "loose/tool/more.rs", register("tpu"));
    // Loose files under no crate root: one crate.
    write(dir.path(), "loose/x.rs", register("tpu"));
    write(dir.path(), "loose/deep/y.rs", register("tpu"));
    assert_eq!(
        findings(dir.path()),
        [
            "duplicate_registration@a/src/more.rs:1",
            "duplicate_registration@loose/x.rs:1",
        ]
    );
}

/// A configuration with a line of 70,000 characters before its error: the
/// excerpt is left out (miette's layout panicked past 65,535 columns).
#[test]
fn a_broken_configuration_with_a_long_line_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let long = "x".repeat(70_000);
    write(
        dir.path(),
        "backend-lint.toml",
        format!("a = \"{long}\"\nbogus = 1\n"),
    );
    write(dir.path(), "lib.rs", "pub fn f() {}\n");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_backend-lint"))
        .current_dir(dir.path())
        .args(["check", "."])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("backend-lint.toml:1:1"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// Registrations in tests never collide with the library's (each test builds
/// its own registry), so they take no place among the registrations a
/// library's one is compared with: 80 of them between two library
/// registrations of one key hid the duplicate.
#[test]
fn registrations_in_tests_do_not_hide_a_duplicate() {
    let dir = tempfile::tempdir().unwrap();
    let tests = |n: usize| -> String {
        (0..n)
            .map(|i| format!("#[test]\nfn t{i}() {{ crate::register_backend(\"cuda\", f); }}\n"))
            .collect()
    };
    write(dir.path(), "lib.rs", "mod a;\nmod b;\nmod c;\nmod d;\n");
    write(dir.path(), "a.rs", tests(40));
    write(
        dir.path(),
        "b.rs",
        "pub fn init() { crate::register_backend(\"cuda\", f); }\n",
    );
    write(dir.path(), "c.rs", tests(40));
    write(
        dir.path(),
        "d.rs",
        "pub fn again() { crate::register_backend(\"cuda\", f); }\n",
    );
    assert_eq!(findings(dir.path()), ["duplicate_registration@d.rs:1"]);
}

/// 2,001 consecutive `if k.is_empty() {}` (and `for`, `while`, `match`,
/// `if let`) in one function: each statement is a chain of its own, but the
/// `.`s (and the `=`s and `|`s of `if let`) were counted across them and the
/// file refused as "2001 `.` method or field links in one expression".
#[test]
fn two_thousand_and_one_block_statements_are_analysed() {
    for statement in [
        "if k.is_empty() { f(); }",
        "for x in k.iter() { g(x); }",
        "while k.is_empty() { f(); }",
        "match k.len() { 0 => f(), _ => {} }",
        "if let Some(x) | Some(x) = k.first() { g(x); }",
        "if k.is_empty() { f(); } else if k.len() > 1 { g(k); }",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let body = format!("    {statement}\n").repeat(2_001);
        write(
            dir.path(),
            "lib.rs",
            format!(
                "pub fn init(r: &mut Registry, k: &[u8]) {{\n{body}    r.register_backend(\"a\", m);\n    r.register_backend(\"a\", m);\n}}\n"
            ),
        );
        assert_eq!(
            findings(dir.path()),
            ["duplicate_registration@lib.rs:2004"],
            "{statement}"
        );
    }
}

/// A real chain of 2,001 links (`a.b().b()..`), which syn builds and
/// drops by recursion, is still refused with an error, not a crash; so
/// is one whose links are separated by blocks (`a.b::<{1}>()..`).
#[test]
fn a_chain_of_two_thousand_and_one_links_is_refused() {
    for link in [".b()", ".b::<{ 1 }>()", ".b(|| {})"] {
        let dir = tempfile::tempdir().unwrap();
        let chain = link.repeat(2_001);
        write(
            dir.path(),
            "lib.rs",
            format!("pub fn init(a: A) {{\n    a{chain};\n}}\n"),
        );
        let (inputs, _) =
            backend_lint::run::discover::collect(&[dir.path().to_path_buf()], dir.path());
        for prefilter in [true, false] {
            let inputs: Vec<Input> = (inputs.iter().cloned())
                .map(|i| Input { prefilter, ..i })
                .collect();
            let outcome = analyze(inputs, LINTS);
            let errors: Vec<&str> = outcome.errors.iter().map(|e| e.message.as_str()).collect();
            assert_eq!(errors.len(), 1, "{link}: {errors:?}");
            assert!(
                errors[0].contains("2001 `.` method or field links"),
                "{link}: {errors:?}"
            );
        }
    }
}

/// `n` wrappers of a learned registration (`reg` rejects a second key),
/// each registering a key of its own, in a ring (each also calls the next)
/// or each called once by `init`; `init` also calls `w5`, whose keys then
/// come twice. Each lookup of a learned name went through every learned
/// name (the vocabulary, the learning, the fast path's cached filter).
fn wrappers(n: usize, ring: bool) -> String {
    let mut text = String::from(concat!(
        "pub struct R { map: std::collections::HashMap<String, fn()> }\n",
        "impl R {\n",
        "    pub fn reg(&mut self, name: &str, f: fn()) {\n",
        "        if self.map.contains_key(name) { panic!(\"twice\") }\n",
        "        self.map.insert(name.to_string(), f);\n",
        "    }\n",
        "}\n",
        "pub fn f() {}\n",
    ));
    for i in 0..n {
        let next = match ring {
            true => format!(" w{}(r);", (i + 1) % n),
            false => String::new(),
        };
        text += &format!("pub fn w{i}(r: &mut R) {{ r.reg(\"k{i}\", f);{next} }}\n");
    }
    let calls: String = match ring {
        true => "w0(r); ".into(),
        false => (0..n).map(|i| format!("w{i}(r); ")).collect(),
    };
    text + &format!("pub fn init(r: &mut R) {{ {calls}w5(r); }}\n")
}

#[test]
fn five_hundred_wrappers_of_a_learned_registration() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "lib.rs", wrappers(500, false));
    assert_eq!(findings(dir.path()), ["duplicate_registration@lib.rs:509"]);
}

#[test]
fn five_hundred_wrappers_of_a_learned_registration_in_a_ring() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "lib.rs", wrappers(500, true));
    assert_eq!(findings(dir.path()), ["duplicate_registration@lib.rs:509"]);
}

/// The checker's report of `dir` in `format` (exit 1: findings).
fn report(dir: &Path, format: &str) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_backend-lint"))
        .current_dir(dir)
        .args(["check", ".", "--color", "never", "--format", format])
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{format}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// One key registered 3,001 times, a line each, in the human format:
/// miette read the file from its start for each finding's excerpt.
#[test]
fn three_thousand_findings_in_one_file_in_the_human_format() {
    let dir = tempfile::tempdir().unwrap();
    let calls = "    register_backend(\"cuda\", make);\n".repeat(3_001);
    write(
        dir.path(),
        "lib.rs",
        format!("pub fn init() {{\n{calls}}}\n"),
    );
    let human = report(dir.path(), "human");
    assert_eq!(human.matches("is registered twice").count(), 3_000);
    // The last finding's excerpt: its line and the lines around it.
    assert!(
        human.contains("─[lib.rs:3002:22]"),
        "{}",
        &human[human.len() - 2_000..]
    );
    assert!(
        human.contains("\n 3003 │ }"),
        "{}",
        &human[human.len() - 2_000..]
    );
}

/// One key registered 3,001 times in SARIF, on stdout and in an `--output`
/// file: the log was made whole in memory (as values, then as text); it is
/// written result by result, the same document.
#[test]
fn three_thousand_findings_in_sarif_written_as_made() {
    let dir = tempfile::tempdir().unwrap();
    let calls = "    register_backend(\"cuda\", make);\n".repeat(3_001);
    write(
        dir.path(),
        "lib.rs",
        format!("pub fn init() {{\n{calls}}}\n"),
    );
    let sarif = report(dir.path(), "sarif");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_backend-lint"))
        .current_dir(dir.path())
        .args(["check", ".", "--quiet", "--output", "sarif=out.sarif"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out.sarif")).unwrap(),
        sarif
    );
    let log: serde_json::Value = serde_json::from_str(&sarif).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 3_000);
    let last = &results[2_999]["locations"][0]["physicalLocation"]["region"];
    assert_eq!(last["startLine"], 3_002);
}

/// A package whose `reg.rs` holds 500 wrappers of a learned registration,
/// each called from a file of its own, and one more calling `c7` and `w7`:
/// each file was searched for each learned name, one at a time.
#[test]
fn five_hundred_wrappers_called_from_files_of_their_own() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "Cargo.toml",
        "[package]\nname = \"wrapped\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    );
    let wrappers = wrappers(500, false);
    let reg = &wrappers[..wrappers.find("pub fn init(").unwrap()];
    write(dir.path(), "src/reg.rs", reg);
    let mut lib = String::from("pub mod reg;\npub mod again;\n");
    for i in 0..500 {
        lib += &format!("pub mod c{i};\n");
        write(
            dir.path(),
            &format!("src/c{i}.rs"),
            format!("pub fn c{i}(r: &mut crate::reg::R) {{ crate::reg::w{i}(r); }}\n"),
        );
    }
    write(dir.path(), "src/lib.rs", lib);
    write(
        dir.path(),
        "src/again.rs",
        "pub fn again(r: &mut crate::reg::R) { crate::c7::c7(r); crate::reg::w7(r); }\n",
    );
    assert_eq!(
        findings(dir.path()),
        ["duplicate_registration@src/again.rs:1"]
    );
}

/// A call of `n` entries of a crate's own recursive macro (the shape of
/// vaultwarden's `make_config!`): the macro writes a struct field, a
/// registration and a name per entry, calling itself for each field's type
/// and each registration; the last entry registers `key7` again.
fn recursive_macro_call(n: usize) -> String {
    let mut text = String::from(
        "macro_rules! backends {
    (@make $key:literal, $f:expr) => { registry().register_backend($key, $f) };
    (@ty $t:ty) => { Option<$t> };
    ($( $(#[doc = $doc:literal])* $name:ident : $t:ty = $key:literal, $f:expr; )+) => {
        pub struct Settings { $( pub $name: backends! { @ty $t }, )+ }
        pub fn init() { $( backends! { @make $key, $f }; )+ }
        pub fn names() -> Vec<&'static str> { vec![$( stringify!($name), )+] }
    };
}

backends! {
",
    );
    for i in 0..n {
        text += &format!(
            "    /// Backend {i}\n    b{i}: u32 = \"key{i}\", |c: &Config| c.get({i}).unwrap_or_default();\n"
        );
    }
    text += "    again: u32 = \"key7\", |c: &Config| c.get(7).unwrap_or_default();\n}\n";
    text
}

/// 2,000 entries in one call of a recursive macro: each repetition of the
/// expansion copied the bindings of every entry, and each `$f:expr` and
/// `$t:ty` was parsed from all the input left after it.
#[test]
fn a_recursive_macro_call_of_two_thousand_entries() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "lib.rs", recursive_macro_call(2_000));
    assert_eq!(findings(dir.path()), ["duplicate_registration@lib.rs:4012"]);
}
