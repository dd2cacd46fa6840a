//! What `check` writes: the report on stdout and in `--output` files,
//! `--statistics`, the baseline and suppression comments, and printing
//! that never panics (a closed pipe or a full disk is an exit code).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::progress::with_spinner;
use super::{CheckArgs, Color, EXIT_CLEAN, EXIT_ERROR};
use crate::baseline;
use crate::model::lint_id::LintId;
use crate::model::text::visible;
use crate::report::{self, Format};
use crate::run::{Input, Outcome};

/// The folders whose links no report or baseline is written through, from
/// wherever the run starts: each path given (a file's folder) and its
/// repository, and each analysed file's package.
pub(super) fn untrusted_roots(args: &CheckArgs, inputs: &[Input]) -> Vec<PathBuf> {
    let mut roots = std::collections::BTreeSet::new();
    for path in &args.paths {
        let Ok(abs) = std::path::absolute(path) else {
            continue;
        };
        let folder = match abs.is_dir() {
            true => abs,
            false => abs.parent().map_or(abs.clone(), Path::to_path_buf),
        };
        roots.insert(report::repository_root(&folder));
        roots.insert(folder);
    }
    let mut packages: Vec<&Arc<Path>> = inputs
        .iter()
        .filter_map(|i| i.package_root.as_ref())
        .collect();
    packages.dedup_by(|a, b| Arc::ptr_eq(a, b));
    roots.extend(packages.into_iter().map(|p| p.to_path_buf()));
    roots.into_iter().collect()
}

/// `--write-baseline`: record the findings; exit 0 unless a file could not
/// be analysed (then its errors are printed, and the exit code is 2).
pub(super) fn write_baseline(
    args: &CheckArgs,
    path: &Path,
    outcome: &Outcome,
    root: PathBuf,
    untrusted: &[PathBuf],
    paths_ok: bool,
) -> u8 {
    match baseline::write(path, outcome, &root, untrusted) {
        Ok(n) => {
            eprintln!(
                "wrote {} to the baseline `{}`",
                report::plural(n, "finding"),
                path.display()
            );
            if outcome.errors.is_empty() && paths_ok {
                return EXIT_CLEAN;
            }
            let options = report::Options {
                color: false,
                root,
                quiet: args.quiet,
            };
            let _ = print(&report::render(Format::Short, outcome, &options));
            EXIT_ERROR
        }
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_ERROR
        }
    }
}

/// `--add-suppressions`: write the comments and say what was done; exit 0
/// unless a file could not be analysed or written (2).
pub(super) fn add_suppressions(outcome: &Outcome, paths_ok: bool) -> u8 {
    let added = crate::run::suppress::add_suppressions(outcome);
    for (path, line) in &added.not_covered {
        eprintln!(
            "warning: {}:{line}: no comment added: the line starts inside a string or a block comment",
            visible(path)
        );
    }
    for e in outcome.errors.iter() {
        let file = &outcome.sources.get(e.file).display;
        eprintln!("error: {}: {}", visible(file), visible(&e.message));
    }
    for e in &added.errors {
        eprintln!("error: {}", visible(e));
    }
    let extended = match added.extended {
        0 => String::new(),
        n => format!(", extended {}", report::plural(n, "existing comment")),
    };
    eprintln!(
        "added {}{extended} in {}; replace each `{}` with why the finding is fine",
        report::plural(added.comments, "suppression comment"),
        report::plural(added.files, "file"),
        crate::lints::apply::add_suppressions::REASON
    );
    if added.errors.is_empty() && outcome.errors.is_empty() && paths_ok {
        EXIT_CLEAN
    } else {
        EXIT_ERROR
    }
}

/// The report on stdout, the `--output` files, `--statistics` and the GitHub
/// step summary. `false` when one of them could not be written.
pub(super) fn write_reports(
    args: &CheckArgs,
    outcome: &Outcome,
    root: PathBuf,
    untrusted: &[PathBuf],
) -> bool {
    let options = report::Options {
        color: use_color(args.color),
        root,
        quiet: args.quiet,
    };
    let format = stdout_format(args);
    let show = !args.quiet;
    let printed = match format {
        // Written as it is made (a spinner would be drawn over it).
        Format::Sarif => write_or_fail(|out| report::write(format, outcome, &options, out)),
        _ => print_or_fail(&with_spinner(show, "writing the report", || {
            report::render(format, outcome, &options)
        })),
    };
    let mut ok = printed == EXIT_CLEAN;
    for (format, path) in &args.output {
        let options = report::Options {
            color: false,
            ..options.clone()
        };
        let write = |out: &mut dyn Write| report::write(*format, outcome, &options, out);
        let written = with_spinner(show, "writing the reports", || {
            crate::run::atomic::replace_within(path, untrusted, write)
        });
        if let Err(e) = written {
            eprintln!(
                "error: cannot write the {} report to `{}`: {e}",
                format.name(),
                path.display()
            );
            ok = false;
        }
    }
    if args.statistics {
        eprint!("{}", statistics(outcome));
    }
    let github = format == Format::Github || args.output.iter().any(|(f, _)| *f == Format::Github);
    if github && let Some(summary) = std::env::var_os("GITHUB_STEP_SUMMARY") {
        let table = report::github::step_summary(outcome, &options.root);
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&summary)
            .and_then(|mut f| f.write_all(table.as_bytes()));
        if let Err(e) = written {
            eprintln!(
                "error: cannot append to GITHUB_STEP_SUMMARY `{}`: {e}",
                PathBuf::from(summary).display()
            );
            ok = false;
        }
    }
    ok
}

/// The format of the report on stdout: `--message-format` over `--format`.
pub(super) fn stdout_format(args: &CheckArgs) -> Format {
    match args.message_format.as_deref() {
        Some("json") => Format::Rustc,
        Some("short") => Format::Short,
        Some("human") => Format::Human,
        _ => args.format,
    }
}

/// `--statistics`: findings per lint, most first, as ruff prints them.
fn statistics(outcome: &Outcome) -> String {
    let mut counts: Vec<(usize, LintId, &str)> = Vec::new();
    for d in &outcome.diagnostics {
        match counts.iter_mut().find(|(_, l, _)| *l == d.lint) {
            Some(c) => c.0 += 1,
            None => counts.push((1, d.lint, d.severity.as_str())),
        }
    }
    // Ids are ordered by name.
    counts.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let width = counts
        .iter()
        .map(|c| c.0.to_string().len())
        .max()
        .unwrap_or(1);
    counts
        .iter()
        .map(|(n, lint, severity)| format!("{n:>width$}  {severity:7}  {lint}\n"))
        .collect()
}
/// Print to stdout. A closed pipe (`| head`) or a full disk is an error to
/// report, never a panic.
fn print(s: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(s.as_bytes())?;
    out.flush()
}

/// Print, and say so when it fails: exit code 2. A reader that stopped
/// reading (`| head -1`) is no failure: the run ends quietly, with the exit
/// code its findings give.
pub(super) fn print_or_fail(s: &str) -> u8 {
    write_or_fail(|out| out.write_all(s.as_bytes()))
}

/// [`print_or_fail`] of what `write` writes.
fn write_or_fail(write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> u8 {
    let mut out = std::io::stdout().lock();
    match write(&mut out).and_then(|()| out.flush()) {
        Ok(()) => EXIT_CLEAN,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => EXIT_CLEAN,
        Err(e) => {
            eprintln!("error: cannot write to standard output: {e}");
            EXIT_ERROR
        }
    }
}

/// Colors for the human report: `--color always/never`, else the environment
/// (`CARGO_TERM_COLOR`, `NO_COLOR`, `CLICOLOR_FORCE`, `TERM=dumb`), else
/// whether stdout is a terminal.
fn use_color(flag: Color) -> bool {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    match flag {
        Color::Always => return true,
        Color::Never => return false,
        Color::Auto => {}
    }
    match var("CARGO_TERM_COLOR").as_deref() {
        Some("always") => return true,
        Some("never") => return false,
        _ => {}
    }
    if var("NO_COLOR").is_some() {
        return false;
    }
    if var("CLICOLOR_FORCE").is_some_and(|v| v != "0") {
        return true;
    }
    if var("TERM").as_deref() == Some("dumb") {
        return false;
    }
    std::io::stdout().is_terminal()
}
