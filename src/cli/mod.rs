//! The command line (clap), and the `cargo backend-lint` shim.

use std::collections::HashSet;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::run::discover;
use crate::run::{dep_sources, summary_cache::SummaryCache};

use std::path::Path;

use crate::baseline;
use crate::config::{Level, Loader, Overrides};
use crate::lints::{self, LINTS};
use crate::model::diagnostic::Severity;
use crate::model::lint_id::{LintId, without_tool};
use crate::model::text::visible;
use crate::model::typo;
use crate::report::{self, Format};
use crate::run::{Input, Outcome, analyze_with_progress, fix};

// std's `eprintln!` and `eprint!` panic when stderr cannot be written (a
// closed pipe: `2>&1 | true`; a full disk: `2>/dev/full`), and a panic
// exits 101. These shadow them in cli/: what cannot be said is lost,
// the exit code stays the documented one.
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}
macro_rules! eprint {
    ($($arg:tt)*) => {{
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

// Declared after the two macros above, so that these files use them too.
mod output;
mod progress;

use output::{
    add_suppressions, print_or_fail, stdout_format, untrusted_roots, write_baseline, write_reports,
};
use progress::with_progress;

/// Exit codes: nothing found, findings, could not do the job.
pub const EXIT_CLEAN: u8 = 0;
pub const EXIT_FINDINGS: u8 = 1;
pub const EXIT_ERROR: u8 = 2;

#[derive(Debug, Parser)]
#[command(
    name = "backend-lint",
    version,
    about = "Find duplicate backend registrations and platform comparisons that skip canonicalization",
    long_about = "backend-lint parses Rust source with syn and reports duplicate backend \
registrations and platform comparisons that skip canonicalization. It never builds or runs \
the code it reads, so it is safe on untrusted pull requests.\n\n\
Exit status: 0 nothing found (or only warnings), 1 deny-level findings, 2 usage error, \
broken configuration, or a file could not be analysed.",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// `backend-lint [OPTIONS]` without a subcommand is `check`.
    #[command(flatten)]
    pub check: CheckArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Lint the cargo package or workspace here, or the given files and directories
    Check(CheckArgs),
    /// List the lints: name, default severity, `[*]` when it has fixes, summary
    Lints,
    /// Print a lint's documentation
    Explain {
        /// The lint's name, e.g. duplicate_registration
        name: String,
    },
    /// Print the configuration that applies to a path, and where it comes from
    Config {
        /// A file or folder; the current folder if omitted
        path: Option<PathBuf>,
        /// Use this configuration file instead of looking for one
        #[arg(long, value_name = "PATH")]
        config: Option<PathBuf>,
        #[command(flatten)]
        levels: LevelArgs,
        /// Learn nothing from the code of the dependencies
        #[arg(long)]
        no_deps: bool,
        /// Where what the dependencies teach is kept (as `check --cache-dir`)
        #[arg(long, value_name = "DIR")]
        cache_dir: Option<PathBuf>,
        /// Read every dependency's code again, and keep nothing
        #[arg(long)]
        no_cache: bool,
    },
    /// Write a commented backend-lint.toml at the workspace or package root:
    /// every key at its built-in value, and what the code taught as suggestions
    Init {
        /// A file or folder of the package; the current folder if omitted
        path: Option<PathBuf>,
        /// Replace a configuration already there
        #[arg(long)]
        force: bool,
    },
    /// Run the language server (LSP over stdio) for editors: docs/editors.md
    Server,
}

/// clippy's `-A/-W/-D`: later flags win over earlier ones and over the configuration.
#[derive(Debug, Default, Clone, clap::Args)]
pub struct LevelArgs {
    /// Allow a lint: do not report it (repeatable)
    #[arg(
        short = 'A',
        long = "allow",
        value_name = "LINT",
        help_heading = "Lint levels"
    )]
    pub allow: Vec<String>,
    /// Report a lint as a warning, which does not fail the run (repeatable)
    #[arg(
        short = 'W',
        long = "warn",
        value_name = "LINT",
        help_heading = "Lint levels"
    )]
    pub warn: Vec<String>,
    /// Report a lint as an error, which fails the run; `-D warnings` makes every warning one (repeatable)
    #[arg(
        short = 'D',
        long = "deny",
        value_name = "LINT",
        help_heading = "Lint levels"
    )]
    pub deny: Vec<String>,
    /// Run only these lints (comma-separated, repeatable); the configuration
    /// and -A/-W/-D give their levels, one the configuration allows runs at its default
    #[arg(
        long,
        value_name = "LINT,..",
        value_delimiter = ',',
        help_heading = "Lint levels"
    )]
    pub select: Vec<String>,
    /// Where each flag was on the command line, to apply them in order.
    #[arg(skip)]
    pub order: Vec<(usize, String, Level)>,
}

impl LevelArgs {
    /// Read the positions of the flags from clap's matches.
    fn ordered(&mut self, matches: &clap::ArgMatches) {
        let mut order = Vec::new();
        for (id, level) in [
            ("allow", Level::Allow),
            ("warn", Level::Warn),
            ("deny", Level::Deny),
        ] {
            if let (Some(indices), Some(values)) =
                (matches.indices_of(id), matches.get_many::<String>(id))
            {
                order.extend(indices.zip(values).map(|(i, v)| (i, v.clone(), level)));
            }
        }
        order.sort_by_key(|(i, _, _)| *i);
        self.order = order;
    }

    fn overrides(&self, config: Option<PathBuf>) -> Overrides {
        let levels = if self.order.is_empty() {
            // Built without clap's matches (tests): allow, warn, deny.
            self.allow
                .iter()
                .map(|n| (n.clone(), Level::Allow))
                .chain(self.warn.iter().map(|n| (n.clone(), Level::Warn)))
                .chain(self.deny.iter().map(|n| (n.clone(), Level::Deny)))
                .collect()
        } else {
            self.order.iter().map(|(_, n, l)| (n.clone(), *l)).collect()
        };
        Overrides {
            levels,
            config,
            select: self.select.clone(),
        }
    }
}

#[derive(Debug, Default, clap::Args)]
pub struct CheckArgs {
    /// Files and directories to lint. Without any: the cargo package (or
    /// workspace) around the current directory. Given files, the whole package
    /// of each is analysed and findings are reported in those files only.
    pub paths: Vec<PathBuf>,
    /// Output format on standard output
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Also write a report to a file, e.g. `--output sarif=report.sarif` (repeatable)
    #[arg(long, value_name = "FORMAT=PATH", value_parser = parse_output)]
    pub output: Vec<(Format, PathBuf)>,
    /// `json` prints rustc's JSON diagnostics, one per line, for editors
    /// (same as `--format rustc`); `human`/`short` as `--format`
    #[arg(long, value_name = "FMT", value_parser = ["human", "short", "json"])]
    pub message_format: Option<String>,
    /// When to color the human report
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
    /// Print findings only: no summary line, no progress, no notes or warnings on stderr
    #[arg(short, long)]
    pub quiet: bool,
    /// After the report, print how many findings each lint has (on stderr)
    #[arg(long)]
    pub statistics: bool,
    /// Exit 0 even with deny-level findings (as ruff's); still 2 when the
    /// run could not do its job (a usage error, a file not analysed)
    #[arg(long)]
    pub exit_zero: bool,
    /// Lint every member of the workspace
    #[arg(long, help_heading = "Package selection")]
    pub workspace: bool,
    /// Lint only this package (repeatable)
    #[arg(
        short = 'p',
        long = "package",
        value_name = "NAME",
        help_heading = "Package selection"
    )]
    pub packages: Vec<String>,
    /// Do not lint this package (with --workspace; repeatable)
    #[arg(long, value_name = "NAME", help_heading = "Package selection")]
    pub exclude: Vec<String>,
    /// Path to Cargo.toml
    #[arg(long, value_name = "PATH", help_heading = "Package selection")]
    pub manifest_path: Option<PathBuf>,
    /// Accepted as cargo takes it; backend-lint never uses the network
    #[arg(long, help_heading = "Manifest options")]
    pub offline: bool,
    /// Accepted as cargo takes it; backend-lint never changes Cargo.lock
    #[arg(long, help_heading = "Manifest options")]
    pub locked: bool,
    /// Accepted as cargo takes it (--locked and --offline)
    #[arg(long, help_heading = "Manifest options")]
    pub frozen: bool,
    #[command(flatten)]
    pub levels: LevelArgs,
    /// Use this configuration (a `backend-lint.toml`, or a `Cargo.toml` with
    /// `[package.metadata.backend-lint]`) for every file, instead of looking for one
    #[arg(long, value_name = "PATH", help_heading = "Configuration")]
    pub config: Option<PathBuf>,
    /// Do not report findings recorded in this baseline file (see --write-baseline)
    #[arg(long, value_name = "FILE", help_heading = "Baseline")]
    pub baseline: Option<PathBuf>,
    /// Record every current finding in this file and exit 0: adopt the linter
    /// on existing code, then run with --baseline to see only new findings
    #[arg(long, value_name = "FILE", help_heading = "Baseline")]
    pub write_baseline: Option<PathBuf>,
    /// Write a suppression comment (`// backend-lint: allow(..) -- reason: TODO`)
    /// above each line with findings, or add the lints to the comment that
    /// covers it, and exit: adopt the linter, then replace each reason
    #[arg(long, conflicts_with = "write_baseline", help_heading = "Baseline")]
    pub add_suppressions: bool,
    /// Parse every file in full, also those in which the vocabulary never
    /// appears (by default only their items are read): the same findings, slower
    #[arg(long)]
    pub no_prefilter: bool,
    /// Read only the workspace: learn nothing from the code of its dependencies
    #[arg(long, help_heading = "Dependencies")]
    pub no_deps: bool,
    /// Keep what the dependencies teach in this folder (default:
    /// `$XDG_CACHE_HOME/backend-lint`, else `~/.cache/backend-lint`)
    #[arg(long, value_name = "DIR", help_heading = "Dependencies")]
    pub cache_dir: Option<PathBuf>,
    /// Read every dependency's code again, and keep nothing
    #[arg(long, help_heading = "Dependencies")]
    pub no_cache: bool,
    /// Apply the safe fixes of the findings, then report what is left
    #[arg(long, help_heading = "Fixes")]
    pub fix: bool,
    /// Apply the unsafe fixes too (with --fix or --diff): likely right, but
    /// they may change behaviour; review them
    #[arg(long, help_heading = "Fixes")]
    pub unsafe_fixes: bool,
    /// Print what --fix would change as a unified diff, and write nothing;
    /// exit 1 when there is a change
    #[arg(long, help_heading = "Fixes")]
    pub diff: bool,
}

fn parse_output(s: &str) -> Result<(Format, PathBuf), String> {
    let (format, path) = s
        .split_once('=')
        .ok_or_else(|| format!("expected FORMAT=PATH, e.g. sarif=report.sarif, got `{s}`"))?;
    let format = Format::from_str(format, true).map_err(|_| {
        let names: Vec<&str> = Format::value_variants().iter().map(|f| f.name()).collect();
        format!("unknown format `{format}` (one of: {})", names.join(", "))
    })?;
    if path.is_empty() {
        return Err("the output path is empty".into());
    }
    Ok((format, PathBuf::from(path)))
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum Color {
    #[default]
    Auto,
    Always,
    Never,
}

/// Entry point of both binaries. `args` includes the program name.
pub fn main_with_args(args: Vec<std::ffi::OsString>) -> ExitCode {
    use clap::{CommandFactory, FromArgMatches};
    let parsed = Cli::command()
        .try_get_matches_from(args)
        .and_then(|m| Cli::from_arg_matches(&m).map(|cli| (cli, m)));
    let cli = match parsed {
        Ok((mut cli, matches)) => {
            match (&mut cli.command, matches.subcommand()) {
                (Some(Command::Check(a)), Some((_, sub))) => a.levels.ordered(sub),
                (Some(Command::Config { levels, .. }), Some((_, sub))) => levels.ordered(sub),
                _ => cli.check.levels.ordered(&matches),
            }
            cli
        }
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() {
                EXIT_ERROR
            } else {
                EXIT_CLEAN
            });
        }
    };
    ExitCode::from(run(cli))
}

/// `cargo backend-lint ...` runs `cargo-backend-lint backend-lint ...`: drop
/// the subcommand name cargo passes.
pub fn cargo_args(mut args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    if args.get(1).is_some_and(|a| a == "backend-lint") {
        args.remove(1);
    }
    if let Some(first) = args.first_mut() {
        *first = "cargo backend-lint".into();
    }
    args
}

fn run(cli: Cli) -> u8 {
    if cli.command.is_none()
        && let [word] = cli.check.paths.as_slice()
        && let Some(message) = unknown_subcommand(word)
    {
        eprintln!("{message}");
        return EXIT_ERROR;
    }
    match cli.command.unwrap_or(Command::Check(cli.check)) {
        Command::Lints => {
            let width = LintId::names().map(str::len).max().unwrap_or(0);
            let mut out = String::new();
            for l in LINTS {
                // `[*]`: `--fix` may edit its findings, as ruff marks them.
                let fix = if l.fixes { "[*]" } else { "" };
                out.push_str(&format!(
                    "{:width$}  {:4}  {fix:3}  {}\n",
                    l.name(),
                    l.id.default_level().as_str(),
                    l.summary
                ));
            }
            print_or_fail(&out)
        }
        // `backend_lint::name`, as in the reports' codes, works too.
        Command::Explain { name } => match LintId::from_written(&name) {
            Some(id) => print_or_fail(lints::lint(id).docs),
            None => {
                let names: Vec<&str> = LintId::names().collect();
                let hint = match typo::closest_lint(without_tool(&name)) {
                    Some(near) => format!("help: a lint with a similar name exists: `{near}`\n"),
                    None => format!("the lints are: {}\n", names.join(", ")),
                };
                eprintln!(
                    "error: no lint named `{name}`\n\n{hint}run `backend-lint lints` for their summaries"
                );
                EXIT_ERROR
            }
        },
        Command::Check(args) => check(args),
        Command::Server => crate::server::stdio(),
        Command::Config {
            path,
            config,
            levels,
            no_deps,
            cache_dir,
            no_cache,
        } => {
            let deps = CheckArgs {
                no_deps,
                cache_dir,
                no_cache,
                quiet: true,
                ..CheckArgs::default()
            };
            show_config(path, levels.overrides(config), deps)
        }
        Command::Init { path, force } => init(path, force),
    }
}

/// `backend-lint init [PATH]`: the commented configuration at the root of
/// the workspace or package of `PATH`, with what its code taught; never
/// over a configuration there, unless `--force`.
fn init(path: Option<PathBuf>, force: bool) -> u8 {
    use crate::run::init;
    let path = path.unwrap_or_else(|| PathBuf::from("."));
    if path.symlink_metadata().is_err() {
        eprintln!("error: `{}` does not exist", path.display());
        return EXIT_ERROR;
    }
    let root = init::root(&path);
    let existing = init::existing(&root);
    let base = std::env::current_dir().unwrap_or_default();
    let display = |p: &Path| crate::model::source::display_path(p, &base);
    let shown = display(&root);
    if !existing.is_empty() && !force {
        eprintln!(
            "error: {} already exists in `{}`: not replaced (`init --force` replaces it)",
            existing.join(" and "),
            visible(&shown)
        );
        return EXIT_ERROR;
    }
    // Learned as the file written will have it learned: with the built-in
    // configuration (it wins over any other, and says nothing more).
    // Places relative to the file written, which is read from there.
    let own_code = CheckArgs {
        no_deps: true,
        quiet: true,
        ..CheckArgs::default()
    };
    let learned: Vec<_> = (learned_under(&root, &Loader::builtin(), own_code).0)
        .into_iter()
        .map(
            |crate::run::Taught {
                 inferred: i, place, ..
             }| {
                let place = match place.rsplit_once(':') {
                    Some((file, line)) => match std::path::absolute(file)
                        .ok()
                        .and_then(|f| f.strip_prefix(&root).ok().map(Path::to_path_buf))
                    {
                        Some(rel) => format!("{}:{line}", rel.display()),
                        None => place,
                    },
                    None => place,
                };
                (i, place)
            },
        )
        .collect();
    let text = crate::config::init::template(&learned);
    match init::write(&root, &text) {
        Ok(written) => {
            eprintln!(
                "wrote `{}`: every key commented out at its built-in value{}",
                visible(&display(&written)),
                match learned.len() {
                    0 => String::new(),
                    n => format!(
                        ", {} learned from the code as suggestions",
                        report::plural(n, "name")
                    ),
                }
            );
            let itself = format!("`{}`", init::FILE);
            for other in existing.iter().filter(|e| **e != itself) {
                eprintln!(
                    "note: {other} is no longer read: `{}` comes first",
                    init::FILE
                );
            }
            EXIT_CLEAN
        }
        Err(e) => {
            eprintln!("error: cannot write `{}`: {e}", visible(&shown));
            EXIT_ERROR
        }
    }
}

/// `backend-lint chek`: a lone bare word (no `/`, no `.`) that is not a path
/// is a mistyped or unknown subcommand, not a folder to check.
fn unknown_subcommand(word: &Path) -> Option<String> {
    let text = word.to_str()?;
    let bare = !text.is_empty() && !text.contains(['/', '.', '\\']) && !text.starts_with('-');
    if !bare || word.symlink_metadata().is_ok() {
        return None;
    }
    use clap::CommandFactory;
    let command = Cli::command();
    let names: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
    let hint = match typo::nearest(text, names.iter().copied()) {
        Some(near) => format!("help: a subcommand with a similar name exists: `{near}`"),
        None => format!("the subcommands are: {}", names.join(", ")),
    };
    Some(format!(
        "error: unrecognized subcommand `{text}`, and no file or folder has that name\n\n{hint}\n\nfor more information, try `--help`"
    ))
}

/// `backend-lint config [PATH]`.
fn show_config(path: Option<PathBuf>, overrides: Overrides, deps: CheckArgs) -> u8 {
    if let Err(e) = overrides.validate() {
        eprintln!("error: {e}");
        return EXIT_ERROR;
    }
    let path = path.unwrap_or_else(|| PathBuf::from("."));
    if !path.exists() {
        eprintln!("error: `{}` does not exist", path.display());
        return EXIT_ERROR;
    }
    let loader = match Loader::new(overrides) {
        Ok(l) => l,
        Err(e) => {
            eprint!("{}", e.render(stderr_color()));
            return EXIT_ERROR;
        }
    };
    let config = match loader.for_dir(&discover::config_dir(&path)) {
        Ok(config) => config,
        Err(e) => {
            eprint!("{}", e.render(stderr_color()));
            return EXIT_ERROR;
        }
    };
    let (learned, unresolved, apis) = learned_under(&path, &loader, deps);
    print_or_fail(&format!(
        "{}{}{}{}",
        config.to_toml(),
        describe_learned(&learned),
        describe_unresolved(&unresolved),
        describe_dependency_apis(&apis)
    ))
}

/// A learned reason without the place in the file of `place` it names
/// (" at src/lib.rs:12", where the check stands): the item's place, shown
/// first, says where to look.
fn without_place(why: &str, place: &str) -> String {
    let display = place.rsplit_once(':').map_or(place, |(d, _)| d);
    match why.split_once(&format!(" at {display}:")) {
        Some((head, tail)) => {
            format!(
                "{head}{}",
                tail.trim_start_matches(|c: char| c.is_ascii_digit())
            )
        }
        None => why.to_string(),
    }
}

/// What the dependencies taught (issue 29), as TOML comments: each API by
/// its item path, with the place in the dependency's source.
fn describe_dependency_apis(apis: &[crate::run::summary_cache::Api]) -> String {
    use std::fmt::Write;
    if apis.is_empty() {
        return String::new();
    }
    let mut out = String::from("\n# Learned from the dependencies (their code is not checked):\n");
    for api in apis {
        let why = without_place(&api.why, &api.place);
        let (path, place, why) = (visible(&api.item_path), visible(&api.place), visible(&why));
        let _ = writeln!(out, "#   `{path}` ({place}): {why}");
    }
    out
}

/// What the code under `path` teaches (issue 19), each with the file and
/// line that taught it: its packages analysed as `check` would, with no
/// lint. Nothing when they cannot be read.
fn learned_under(
    path: &Path,
    loader: &Loader,
    deps: CheckArgs,
) -> (
    Vec<crate::run::Taught>,
    crate::run::Unresolved,
    Vec<crate::run::summary_cache::Api>,
) {
    let base = std::env::current_dir().unwrap_or_default();
    // A package's or workspace's folder: its packages as cargo says, and
    // their dependencies.
    let args = match !deps.no_deps && path.is_dir() && discover::is_package_dir(path) {
        true => CheckArgs {
            manifest_path: Some(path.join("Cargo.toml")),
            workspace: true,
            ..deps
        },
        false => CheckArgs {
            paths: vec![path.to_path_buf()],
            ..deps
        },
    };
    let Ok(selected) = select(&args, &base) else {
        return Default::default();
    };
    let Ok((mut inputs, _)) = discover::configure(selected.inputs, loader) else {
        return Default::default();
    };
    let cache = (selected.deps).and_then(|d| add_dependencies(&args, &d, &mut inputs));
    let outcome = analyze_with_progress(inputs, &[], &|_| {});
    if let Some(cache) = &cache {
        store_summaries(cache, &outcome, true);
    }
    (
        outcome.inferred,
        outcome.unresolved,
        outcome.dependency_apis,
    )
}

/// What the model could not resolve, as TOML comments: learning by item
/// did not see through these references (by name only, if at all).
fn describe_unresolved(counts: &crate::run::Unresolved) -> String {
    use std::fmt::Write;
    if counts.references == 0 {
        return String::new();
    }
    let unresolved: usize = counts.by_why.iter().map(|(_, n)| n).sum();
    if unresolved == 0 {
        return format!(
            "\n# Name resolution: each of the {} references ties to its item.\n",
            counts.references
        );
    }
    let mut out = format!(
        "\n# Name resolution: {unresolved} of {} references tie to no item \
         (what they call is matched by name, if at all):\n",
        counts.references
    );
    for (why, n) in &counts.by_why {
        let _ = writeln!(out, "#   {n:>7}  {}", why.describe());
    }
    out
}

/// The learned facts as TOML comments (the output stays a configuration
/// file), under a heading per kind, each by the item it was learned on
/// (its name where the model ties the place to none) with the place that
/// taught it.
fn describe_learned(learned: &[crate::run::Taught]) -> String {
    use crate::model::facts::InferredKind;
    use std::fmt::Write;
    if learned.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "\n# Learned from the code, used as if configured (not written in any file):\n",
    );
    for group in learned.chunk_by(|a, b| a.inferred.kind == b.inferred.kind) {
        let heading = match group[0].inferred.kind {
            InferredKind::Registration => "registration functions",
            InferredKind::Source => "platform sources",
            InferredKind::Canonicalizer => "platform canonicalizers",
            InferredKind::ValueSet => "closed platform value sets",
            InferredKind::Normalizer => {
                "normalizers (a value handed to one is raw where compared as written)"
            }
        };
        let _ = writeln!(out, "# {heading}:");
        for t in group {
            // A learned registration's reason names its place for the
            // findings' labels; here the place is shown once, first.
            let why = without_place(&t.inferred.why, &t.place);
            let name = t.item_path.as_deref().unwrap_or(&t.inferred.name);
            let (name, why, place) = (visible(name), visible(&why), visible(&t.place));
            let _ = writeln!(out, "#   `{name}` ({place}): {why}");
        }
    }
    out
}

fn stderr_color() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

fn check(args: CheckArgs) -> u8 {
    let base = std::env::current_dir().unwrap_or_default();
    let overrides = args.levels.overrides(args.config.clone());
    if let Err(e) = overrides.validate() {
        eprintln!("error: {e}");
        return EXIT_ERROR;
    }
    if args.baseline.is_some() && args.write_baseline.is_some() {
        eprintln!("error: --baseline and --write-baseline cannot be used together");
        return EXIT_ERROR;
    }
    if let Some(e) = fix_usage_error(&args) {
        eprintln!("error: {e}");
        return EXIT_ERROR;
    }
    let loader = match Loader::new(overrides) {
        Ok(l) => l,
        Err(e) => {
            eprint!("{}", e.render(stderr_color()));
            return EXIT_ERROR;
        }
    };
    let Selected {
        inputs,
        deps,
        only,
        path_errors,
    } = match select(&args, &base) {
        Ok(selected) => selected,
        Err(code) => return code,
    };
    for e in &path_errors {
        eprintln!("error: {}", visible(&e.message));
    }
    let inputs = match discover::configure(inputs, &loader) {
        Ok((inputs, excluded)) => {
            // Files given by name (pre-commit) that the configuration excludes.
            for (input, config) in &excluded {
                let given = only.as_ref().is_some_and(|only| {
                    std::path::absolute(&input.path).is_ok_and(|p| only.contains(&p))
                });
                if given && !args.quiet {
                    eprintln!(
                        "warning: `{}` is excluded by `exclude` in {}; not checked",
                        visible(&input.display),
                        visible(&config.origin.describe())
                    );
                }
            }
            inputs
        }
        Err(e) => {
            eprint!("{}", e.render(stderr_color()));
            return EXIT_ERROR;
        }
    };
    if inputs.is_empty() && path_errors.is_empty() {
        return nothing_to_check(&args, &base, only.is_some());
    }
    let untrusted = untrusted_roots(&args, &inputs);
    let mut inputs = inputs;
    let summaries = deps.and_then(|deps| add_dependencies(&args, &deps, &mut inputs));
    let inputs = inputs
        .into_iter()
        .map(|i| Input {
            prefilter: !args.no_prefilter,
            ..i
        })
        .collect();
    let fixing = args.fix || args.diff;
    let editable = |path: &Path| {
        only.as_ref()
            .is_none_or(|only| std::path::absolute(path).is_ok_and(|p| only.contains(&p)))
    };
    let options = fix::Options {
        unsafe_fixes: args.unsafe_fixes,
        editable: &editable,
    };
    let fixed = with_progress(!args.quiet, |progress| match fixing {
        true => fix::fix(inputs, LINTS, &options, progress),
        false => fix::Fixed {
            outcome: analyze_with_progress(inputs, LINTS, progress),
            ..Default::default()
        },
    });
    if args.diff {
        return show_diff(&args, &fixed, path_errors.is_empty());
    }
    let fix::Fixed {
        mut outcome,
        changes,
        applied,
        rolled_back,
    } = fixed;
    if let Some(cache) = &summaries {
        store_summaries(cache, &outcome, args.quiet);
    }
    let not_written = fix::write(&changes);
    for n in rolled_back.iter().chain(&not_written) {
        eprintln!(
            "error: `{}` was not fixed: {}",
            visible(&n.display),
            visible(&n.why)
        );
    }
    if let Some(only) = &only {
        restrict(&mut outcome, only, args.quiet);
    }
    // What is left, in the files reported on.
    if args.fix && !args.quiet {
        eprint!(
            "{}",
            fix_summary(&args, &outcome, applied, changes.len() - not_written.len())
        );
    }
    // The human report lists them itself.
    let listed = stdout_format(&args) == Format::Human;
    for e in outcome.skipped.iter().filter(|_| !args.quiet && !listed) {
        let message = report::skipped_message(&outcome.sources, e);
        eprintln!("warning: {}", visible(&message));
    }
    let root = report::repository_root(&base);
    if let Some(path) = &args.write_baseline {
        return write_baseline(
            &args,
            path,
            &outcome,
            root,
            &untrusted,
            path_errors.is_empty(),
        );
    }
    if let Some(path) = &args.baseline {
        match baseline::apply(path, &mut outcome, &root) {
            Ok(applied) if args.quiet => drop(applied),
            Ok(applied) => eprint!("{}", applied.note(path)),
            Err(e) => {
                eprintln!("error: {e}");
                return EXIT_ERROR;
            }
        }
    }
    if args.add_suppressions {
        return add_suppressions(&outcome, path_errors.is_empty());
    }
    let written = write_reports(&args, &outcome, root, &untrusted);
    let fixes_failed = !rolled_back.is_empty() || !not_written.is_empty();
    if !written || fixes_failed || !path_errors.is_empty() || !outcome.errors.is_empty() {
        EXIT_ERROR
    } else if !args.exit_zero
        && outcome
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    }
}

/// Flags of fixing that cannot go together, as a message.
fn fix_usage_error(args: &CheckArgs) -> Option<&'static str> {
    if args.unsafe_fixes && !(args.fix || args.diff) {
        Some("`--unsafe-fixes` only says which fixes to apply: use it with `--fix` or `--diff`")
    } else if (args.fix || args.diff) && args.write_baseline.is_some() {
        Some(
            "`--write-baseline` cannot be used with `--fix` or `--diff`: fix first, then record what is left",
        )
    } else {
        None
    }
}

/// `--diff`: the changes on stdout, a count on stderr; exit 1 when there
/// is a change.
fn show_diff(args: &CheckArgs, fixed: &fix::Fixed, paths_ok: bool) -> u8 {
    let diff = report::diff::diff(&fixed.changes);
    let printed = print_or_fail(&diff.text);
    for n in &fixed.rolled_back {
        eprintln!(
            "error: `{}` would not be fixed: {}",
            visible(&n.display),
            visible(&n.why)
        );
    }
    for name in &diff.refused {
        eprintln!(
            "error: `{name}` is left out of the diff: its name holds a line break or a control \
             character, which a patch header cannot hold"
        );
    }
    if !args.quiet {
        eprintln!(
            "would apply {} in {}{}",
            fixes(fixed.applied),
            report::plural(fixed.changes.len(), "file"),
            unsafe_note(args, &fixed.outcome)
        );
    }
    if printed != EXIT_CLEAN
        || !paths_ok
        || !fixed.outcome.errors.is_empty()
        || !fixed.rolled_back.is_empty()
        || !diff.refused.is_empty()
    {
        EXIT_ERROR
    } else if fixed.changes.is_empty() {
        EXIT_CLEAN
    } else {
        EXIT_FINDINGS
    }
}

/// After `--fix`: how many fixes were applied, and how many more
/// `--unsafe-fixes` would apply (as ruff says it).
fn fix_summary(args: &CheckArgs, outcome: &Outcome, applied: usize, files: usize) -> String {
    format!(
        "fixed {} in {}, {} left{}\n",
        report::plural(applied, "finding"),
        report::plural(files, "file"),
        outcome.diagnostics.len(),
        unsafe_note(args, outcome)
    )
}

/// "1 fix", "2 fixes".
fn fixes(n: usize) -> String {
    match n {
        1 => "1 fix".into(),
        n => format!("{n} fixes"),
    }
}

/// "; 2 fixes available with `--unsafe-fixes`" when there are such.
fn unsafe_note(args: &CheckArgs, outcome: &Outcome) -> String {
    let more = match args.unsafe_fixes {
        true => 0,
        false => fix::fixable(outcome, true) - fix::fixable(outcome, false),
    };
    match more {
        0 => String::new(),
        n => format!("; {} available with `--unsafe-fixes`", fixes(n)),
    }
}

/// What `check` was asked to read.
struct Selected {
    inputs: Vec<Input>,
    /// The dependencies to learn from (issue 29), in a cargo workspace.
    deps: Option<dep_sources::DepSources>,
    /// Findings are reported for these files only (given files: pre-commit).
    only: Option<HashSet<PathBuf>>,
    path_errors: Vec<discover::PathError>,
}

/// Add the inputs of the dependencies to learn from (issue 29), saying
/// which were not read and why; the summary cache to keep what they teach,
/// unless `--no-cache`.
fn add_dependencies(
    args: &CheckArgs,
    deps: &dep_sources::DepSources,
    inputs: &mut Vec<Input>,
) -> Option<SummaryCache> {
    if !args.quiet {
        if let Some(note) = &deps.note {
            eprintln!("note: {}", visible(note));
        }
        for (name, why) in &deps.skipped {
            eprintln!(
                "warning: dependency `{}` skipped: {}",
                visible(name),
                visible(why)
            );
        }
    }
    let config = inputs.iter().find(|i| i.skip.is_none())?.config.clone();
    let cache = match args.no_cache {
        true => None,
        false => match SummaryCache::open(args.cache_dir.as_deref()) {
            Ok(cache) => Some(cache),
            Err(why) => {
                if !args.quiet {
                    eprintln!(
                        "warning: no summary of a dependency is kept: {}",
                        visible(&why)
                    );
                }
                None
            }
        },
    };
    let next = inputs.iter().map(|i| i.krate + 1).max().unwrap_or(0);
    inputs.extend(dep_sources::inputs(deps, &config, next, cache.as_ref()));
    cache
}

/// Keep what the dependencies read in this run taught.
fn store_summaries(cache: &SummaryCache, outcome: &Outcome, quiet: bool) {
    let entries: Vec<(&str, &crate::run::summary_cache::Summary)> = (outcome.dependency_summaries)
        .iter()
        .filter_map(|(dep, summary)| Some((dep.key.as_deref()?, summary)))
        .collect();
    if let Err(e) = cache.store(&entries)
        && !quiet
    {
        eprintln!("warning: the summaries of the dependencies were not kept: {e}");
    }
}

/// `--workspace` checks the members only: one note naming the packages
/// under the workspace root that are none, and how to check them.
fn note_left_out(left_out: &[PathBuf], base: &Path) {
    let Some(first) = left_out.first() else {
        return;
    };
    let shown =
        |dir: &PathBuf| visible(&crate::model::source::display_path(dir, base)).into_owned();
    let names: Vec<String> = left_out.iter().map(|d| format!("`{}`", shown(d))).collect();
    eprintln!(
        "note: {} under the workspace root {} of it, so `--workspace` does not check {}: {}; \
         check one with `backend-lint check {}`, or every folder with `backend-lint check .`",
        report::plural(left_out.len(), "package"),
        if left_out.len() == 1 {
            "is not a member"
        } else {
            "are not members"
        },
        if left_out.len() == 1 { "it" } else { "them" },
        names.join(", "),
        shown(first)
    );
}

/// The files to read: the selected packages, the given directories, or the
/// whole packages of the given files. `Err` is the exit code of a usage error.
fn select(args: &CheckArgs, base: &Path) -> Result<Selected, u8> {
    let selecting = args.workspace
        || !args.packages.is_empty()
        || !args.exclude.is_empty()
        || args.manifest_path.is_some();
    if selecting && !args.paths.is_empty() {
        eprintln!(
            "error: paths cannot be combined with --workspace, --package, --exclude or --manifest-path"
        );
        return Err(EXIT_ERROR);
    }
    if !args.exclude.is_empty() && !args.workspace {
        eprintln!("error: --exclude can only be used together with --workspace");
        return Err(EXIT_ERROR);
    }
    // The cargo that started this run must not be the analysed tree's choice,
    // whether or not cargo is asked for the packages.
    let analysed: Vec<PathBuf> = match (&args.manifest_path, args.paths.is_empty()) {
        (Some(manifest), _) => manifest
            .parent()
            .into_iter()
            .map(Path::to_path_buf)
            .collect(),
        (None, true) => vec![base.to_path_buf()],
        (None, false) => args.paths.clone(),
    };
    let tree = discover::analysed_tree(base, &analysed);
    if let Err(e) = discover::cargo_env(&tree) {
        eprintln!("error: {e}");
        return Err(EXIT_ERROR);
    }
    let mut only = None;
    let mut deps = None;
    let (inputs, path_errors) = if args.paths.is_empty() {
        let selection = discover::Selection {
            manifest_path: args.manifest_path.clone(),
            workspace: args.workspace,
            // `-p name@version`, as cargo takes it: one version per name in a workspace.
            packages: args
                .packages
                .iter()
                .map(|p| p.split_once('@').map_or(p.as_str(), |(n, _)| n).to_string())
                .collect(),
            exclude: args.exclude.clone(),
        };
        let packages = match args.no_deps {
            true => discover::cargo_packages(base, &selection, &tree),
            // The cache for cargo's answer too; why it cannot be used is
            // said once, when the summaries are looked up.
            false => {
                let cache = (!args.no_cache)
                    .then(|| crate::run::metadata_cache::open(args.cache_dir.as_deref()))
                    .flatten();
                dep_sources::load(base, &selection, &tree, cache.as_ref())
            }
            .map(|(packages, found)| {
                deps = Some(found);
                packages
            }),
        };
        match packages {
            Ok(packages) => {
                if !args.quiet {
                    note_left_out(&packages.left_out, base);
                }
                discover::package_inputs(&packages.chosen, base)
            }
            // Outside any cargo package, plain `check` lints the current directory.
            Err(_) if !selecting && discover::nearest_package(base).is_none() => {
                discover::collect(&[PathBuf::from(".")], base)
            }
            Err(e) => {
                // cargo's message may quote the checkout (a package name).
                eprintln!("error: {}", visible(&e));
                return Err(EXIT_ERROR);
            }
        }
    } else if args.paths.iter().all(|p| p.is_file()) {
        only = Some(
            args.paths
                .iter()
                .filter_map(|p| std::path::absolute(p).ok())
                .collect(),
        );
        discover::packages_of_files(&args.paths, base)
    } else {
        // The dependencies of the packages walked, as without paths:
        // `check .` at a workspace's root learns what `check` learns.
        if !args.no_deps {
            let cache = (!args.no_cache)
                .then(|| crate::run::metadata_cache::open(args.cache_dir.as_deref()))
                .flatten();
            let dirs: Vec<PathBuf> = (args.paths.iter())
                .map(|p| base.join(p))
                .filter(|p| p.is_dir())
                .collect();
            deps = dep_sources::load_around(&dirs, &tree, cache.as_ref());
        }
        discover::collect(&args.paths, base)
    };
    Ok(Selected {
        inputs,
        deps,
        only,
        path_errors,
    })
}

/// No file to read: an error, unless pre-commit passed only excluded files.
fn nothing_to_check(args: &CheckArgs, base: &Path, files_given: bool) -> u8 {
    if files_given {
        return EXIT_CLEAN;
    }
    let selecting = args.workspace || !args.packages.is_empty() || args.manifest_path.is_some();
    let what = if args.paths.is_empty() && !selecting && discover::nearest_package(base).is_none() {
        // Outside any package, the current folder was walked: no package
        // was selected, so none is to blame.
        "under the current folder, which is in no cargo package".to_string()
    } else if args.paths.is_empty() {
        "in the selected packages".to_string()
    } else {
        let shown: Vec<String> = args
            .paths
            .iter()
            .map(|p| format!("`{}`", p.display()))
            .collect();
        format!("under {}", shown.join(", "))
    };
    eprintln!(
        "error: no Rust files to check {what} (none found, or all excluded by the configuration)"
    );
    EXIT_ERROR
}

/// Keep only what concerns the given files (the whole packages were analysed).
fn restrict(outcome: &mut Outcome, only: &HashSet<PathBuf>, quiet: bool) {
    let sources = &outcome.sources;
    let wanted =
        |file: u32| std::path::absolute(&sources.get(file).path).is_ok_and(|p| only.contains(&p));
    outcome.diagnostics.retain(|d| wanted(d.span.file));
    let others = outcome.errors.iter().filter(|e| !wanted(e.file)).count();
    if others > 0 && !quiet {
        eprintln!(
            "warning: {} of the package could not be analysed; registrations in them were not compared",
            report::plural(others, "other file")
        );
    }
    outcome.errors.retain(|e| wanted(e.file));
    outcome.skipped.retain(|e| wanted(e.file));
}
