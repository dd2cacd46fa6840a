//! The fixtures in `lints/<name>/` are the lints' tests.
//!
//! - `bad*.rs` (or a folder `bad*/`, analysed as one crate): every finding is
//!   marked in place with `//~ <lint_name>` on the line where it starts, and
//!   the human report is `bad*.expected` beside it.
//! - `good*.rs` / `good*/`: no finding at all.
//!
//! - `bad*.fixed` beside a `bad*.rs` (for a folder fixture, `<file>.fixed`
//!   beside each `<file>.rs` it changes, e.g. `bad_x/lib.fixed`): the
//!   fixture after `--fix --unsafe-fixes`, as clippy keeps them. No such file
//!   when the fixes change nothing. The fixed text must be analysed without
//!   error, and no finding of it may have a fix left to apply.
//!
//! Every lint runs over every fixture, so a false positive of any lint in any
//! folder fails here. Regenerate the expected output with
//! `UPDATE_EXPECT=1 cargo test --test fixtures`, then read the diff.

use std::collections::BTreeMap;

use backend_lint::lints::LINTS;
use backend_lint::report::{self, Format, Options};
use backend_lint::run::{Input, Outcome, analyze, fix};

mod common;
use common::{Fixture, fixtures, root};

fn run(fixture: &Fixture) -> Outcome {
    analyze(fixture.inputs(), LINTS)
}

/// `(file, line) -> lint names` from the `//~ name` markers.
fn markers(fixture: &Fixture) -> BTreeMap<(String, usize), Vec<String>> {
    let mut out = BTreeMap::new();
    for file in &fixture.files {
        let display = file
            .strip_prefix(root())
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(file).unwrap();
        for (i, line) in text.lines().enumerate() {
            let mut names: Vec<String> = line
                .split("//~")
                .skip(1)
                .map(|m| m.split_whitespace().next().unwrap_or("").to_string())
                .collect();
            if !names.is_empty() {
                names.sort();
                out.insert((display.clone(), i + 1), names);
            }
        }
    }
    out
}

fn found(outcome: &Outcome) -> BTreeMap<(String, usize), Vec<String>> {
    let mut out: BTreeMap<(String, usize), Vec<String>> = BTreeMap::new();
    for d in &outcome.diagnostics {
        let file = outcome.sources.get(d.span.file);
        let line = file.line_col(d.span.start).line;
        out.entry((file.display.clone(), line))
            .or_default()
            .push(d.lint.to_string());
    }
    for names in out.values_mut() {
        names.sort();
    }
    out
}

fn check_fixture(fixture: &Fixture, failures: &mut Vec<String>) {
    let outcome = run(fixture);
    let name = fixture.name();
    for e in &outcome.errors {
        failures.push(format!(
            "{name}: fixture could not be analysed: {}",
            e.message
        ));
    }
    let expected = markers(fixture);
    let actual = found(&outcome);
    let is_good = fixture
        .path
        .file_name()
        .unwrap()
        .to_string_lossy()
        .starts_with("good");
    if is_good && !expected.is_empty() {
        failures.push(format!(
            "{name}: a good fixture must not carry `//~` markers"
        ));
    }
    if !is_good && expected.is_empty() {
        failures.push(format!(
            "{name}: a bad fixture must mark at least one finding with `//~`"
        ));
    }
    for (at, names) in &expected {
        if actual.get(at) != Some(names) {
            failures.push(format!(
                "{}:{}: expected {:?}, found {:?}",
                at.0,
                at.1,
                names,
                actual.get(at).cloned().unwrap_or_default()
            ));
        }
    }
    for (at, names) in &actual {
        if !expected.contains_key(at) {
            let messages: Vec<String> = outcome
                .diagnostics
                .iter()
                .filter(|d| {
                    let f = outcome.sources.get(d.span.file);
                    f.display == at.0 && f.line_col(d.span.start).line == at.1
                })
                .map(|d| format!("{}: {}", d.lint, d.message))
                .collect();
            failures.push(format!(
                "{}:{}: unexpected {:?} (no `//~` marker): {}",
                at.0,
                at.1,
                names,
                messages.join("; ")
            ));
        }
    }
    if is_good {
        return;
    }
    let options = Options {
        color: false,
        root: root(),
        quiet: false,
    };
    check_fixed(fixture, failures);
    let rendered = report::render(Format::Human, &outcome, &options);
    let expected_path = fixture.expected_path();
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&expected_path, &rendered).unwrap();
        return;
    }
    match std::fs::read_to_string(&expected_path) {
        Ok(old) if old == rendered => {}
        Ok(old) => failures.push(format!(
            "{name}: output differs from {} (run `UPDATE_EXPECT=1 cargo test --test fixtures` and review the diff)\n{}",
            expected_path.display(),
            first_difference(&old, &rendered)
        )),
        Err(_) => failures.push(format!(
            "{name}: no expected output at {} (run `UPDATE_EXPECT=1 cargo test --test fixtures`)",
            expected_path.display()
        )),
    }
}

/// The fixture after `--fix --unsafe-fixes` is its `.fixed` files; it is
/// analysed without error and has no fix left to apply.
fn check_fixed(fixture: &Fixture, failures: &mut Vec<String>) {
    let name = fixture.name();
    let options = fix::Options {
        unsafe_fixes: true,
        editable: &|_| true,
    };
    let fixed = fix::fix(fixture.inputs(), LINTS, &options, &|_| {});
    for n in &fixed.rolled_back {
        failures.push(format!("{name}: `{}` not fixed: {}", n.display, n.why));
    }
    for e in &fixed.outcome.errors {
        failures.push(format!(
            "{name}: the fixed text cannot be analysed: {}",
            e.message
        ));
    }
    for d in &fixed.outcome.diagnostics {
        if d.fix.as_ref().is_some_and(|f| fix::allowed(f, true)) {
            failures.push(format!(
                "{name}: after fixing, a fix is left: {}: {}",
                d.lint, d.message
            ));
        }
    }
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    for file in &fixture.files {
        let path = file.with_extension("fixed");
        let new = fixed
            .changes
            .iter()
            .find(|c| c.path == *file)
            .map(|c| &*c.new);
        match (new, std::fs::read_to_string(&path).ok()) {
            (Some(new), _) if update => std::fs::write(&path, new).unwrap(),
            (None, Some(_)) if update => std::fs::remove_file(&path).unwrap(),
            (Some(new), Some(old)) if old == new => {}
            (None, None) => {}
            (Some(new), Some(old)) => failures.push(format!(
                "{name}: the fixed text differs from {} (run `UPDATE_EXPECT=1 cargo test --test fixtures` and review the diff)\n{}",
                path.display(),
                first_difference(&old, new)
            )),
            (Some(_), None) => failures.push(format!(
                "{name}: no fixed text at {} (run `UPDATE_EXPECT=1 cargo test --test fixtures`)",
                path.display()
            )),
            (None, Some(_)) => failures.push(format!(
                "{name}: {} exists but the fixes change nothing there",
                path.display()
            )),
        }
    }
}

fn first_difference(old: &str, new: &str) -> String {
    for (i, (a, b)) in old.lines().zip(new.lines()).enumerate() {
        if a != b {
            return format!("line {}:\n- {a}\n+ {b}", i + 1);
        }
    }
    format!(
        "lengths differ: {} vs {} lines",
        old.lines().count(),
        new.lines().count()
    )
}

#[test]
fn every_fixture_matches_its_markers_and_expected_output() {
    let mut failures = Vec::new();
    let mut count = 0;
    for lint in LINTS {
        let dir = root().join("lints").join(lint.name());
        let all = fixtures(&dir);
        if !all.iter().any(|f| f.name().contains("/bad"))
            || !all.iter().any(|f| f.name().contains("/good"))
        {
            failures.push(format!(
                "lints/{}: needs bad*.rs and good*.rs fixtures",
                lint.name()
            ));
        }
        // The lint must fire in its own bad fixtures.
        let fires = all
            .iter()
            .filter(|f| f.name().contains("/bad"))
            .any(|f| markers(f).values().flatten().any(|n| n == lint.name()));
        if !fires {
            failures.push(format!(
                "lints/{}: no `//~ {}` marker in its bad fixtures",
                lint.name(),
                lint.name()
            ));
        }
        for fixture in &all {
            count += 1;
            check_fixture(fixture, &mut failures);
        }
    }
    assert!(count > 0, "no fixtures found");
    assert!(
        failures.is_empty(),
        "{} fixture problem(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_lint_readme_has_the_sections() {
    let sections = [
        "## What it does",
        "## Why is this bad?",
        "## Example",
        "## Use instead",
        "## Configuration",
        "## Known limitations",
    ];
    for lint in LINTS {
        assert!(
            lint.docs.starts_with(&format!("# {}\n", lint.name())),
            "lints/{}/README.md must start with `# {}`",
            lint.name(),
            lint.name()
        );
        let mut last = 0;
        // Lints with fixes say what they edit and how far to trust it.
        let fix = lint.fixes.then_some("## Fix");
        let sections = sections[..4].iter().chain(&fix).chain(&sections[4..]);
        for &s in sections {
            let at = lint
                .docs
                .find(s)
                .unwrap_or_else(|| panic!("lints/{}/README.md lacks `{s}`", lint.name()));
            assert!(
                at > last,
                "lints/{}/README.md: `{s}` is out of order",
                lint.name()
            );
            last = at;
        }
    }
}

/// The ```rust blocks of a README section.
fn rust_blocks(docs: &str, section: &str) -> Vec<String> {
    let Some(start) = docs.find(section) else {
        return Vec::new();
    };
    let body = &docs[start + section.len()..];
    let body = &body[..body.find("\n## ").unwrap_or(body.len())];
    body.split("```rust\n")
        .skip(1)
        .filter_map(|b| b.split("\n```").next())
        .map(str::to_string)
        .collect()
}

fn lint_snippet(code: &str) -> Outcome {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lib.rs");
    std::fs::write(&path, code).unwrap();
    analyze(vec![Input::new(path, "lib.rs".into(), 0)], LINTS)
}

/// Documentation that runs: each lint's Example fires it, its Use instead is
/// silent (every lint), as biome checks its docs.
#[test]
fn readme_examples_fire_and_fixes_are_silent() {
    for lint in LINTS {
        let examples = rust_blocks(lint.docs, "## Example");
        let fixes = rust_blocks(lint.docs, "## Use instead");
        assert!(
            !examples.is_empty(),
            "lints/{}/README.md: no ```rust block under Example",
            lint.name()
        );
        assert!(
            !fixes.is_empty(),
            "lints/{}/README.md: no ```rust block under Use instead",
            lint.name()
        );
        for code in &examples {
            let outcome = lint_snippet(code);
            assert!(
                outcome.errors.is_empty(),
                "{}: Example does not parse: {:?}",
                lint.name(),
                outcome.errors
            );
            assert!(
                outcome.diagnostics.iter().any(|d| d.lint == lint.id),
                "lints/{}/README.md: the Example does not fire the lint:\n{code}",
                lint.name()
            );
        }
        for code in &fixes {
            let outcome = lint_snippet(code);
            assert!(
                outcome.errors.is_empty(),
                "{}: Use instead does not parse: {:?}",
                lint.name(),
                outcome.errors
            );
            let found: Vec<String> = outcome
                .diagnostics
                .iter()
                .map(|d| format!("{}: {}", d.lint, d.message))
                .collect();
            assert!(
                found.is_empty(),
                "lints/{}/README.md: Use instead is not silent: {found:?}",
                lint.name()
            );
        }
    }
}
