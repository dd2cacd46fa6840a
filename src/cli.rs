//! The command line (clap), and the `cargo backend-lint` shim.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::engine::{Outcome, analyze};
use crate::lints::{self, LINTS};
use crate::report::{self, Format};

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
Exit status: 0 nothing found, 1 findings, 2 usage error or a file could not be analysed."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Lint files and directories (default: the current directory)
    Check(CheckArgs),
    /// List the lints: name, default severity, summary
    Lints,
    /// Print a lint's documentation
    Explain {
        /// The lint's name, e.g. duplicate_registration
        name: String,
    },
}

#[derive(Debug, Default, clap::Args)]
pub struct CheckArgs {
    /// Files and directories to lint; directories are walked respecting .gitignore
    pub paths: Vec<PathBuf>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// When to color the human report
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
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
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
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
    match cli.command.unwrap_or(Command::Check(CheckArgs::default())) {
        Command::Lints => {
            let width = LINTS.iter().map(|l| l.name.len()).max().unwrap_or(0);
            let mut out = String::new();
            for l in LINTS {
                out.push_str(&format!(
                    "{:width$}  {:7}  {}\n",
                    l.name,
                    l.default_severity.as_str(),
                    l.summary
                ));
            }
            print(&out);
            EXIT_CLEAN
        }
        Command::Explain { name } => match lints::find(&name) {
            Some(l) => {
                print(l.docs);
                EXIT_CLEAN
            }
            None => {
                let names: Vec<&str> = LINTS.iter().map(|l| l.name).collect();
                eprintln!(
                    "error: no lint named `{name}`\n\nthe lints are: {}\nrun `backend-lint lints` for their summaries",
                    names.join(", ")
                );
                EXIT_ERROR
            }
        },
        Command::Check(args) => check(args),
    }
}

fn check(args: CheckArgs) -> u8 {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths
    };
    let base = std::env::current_dir().unwrap_or_default();
    let (inputs, path_errors) = crate::discover::collect(&paths, &base);
    for e in &path_errors {
        eprintln!("error: {}", e.message);
    }
    let outcome: Outcome = analyze(inputs, LINTS);
    let color = match args.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    print(&report::render(
        args.format,
        &outcome,
        report::Options { color },
    ));
    if !path_errors.is_empty() || !outcome.errors.is_empty() {
        EXIT_ERROR
    } else if !outcome.diagnostics.is_empty() {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    }
}

/// Print to stdout; a closed pipe (`| head`) is not an error worth a panic.
fn print(s: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(s.as_bytes());
    let _ = out.flush();
}
