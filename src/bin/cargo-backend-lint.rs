//! `cargo backend-lint`: cargo runs this binary with `backend-lint` as its
//! first argument.

use std::process::ExitCode;

fn main() -> ExitCode {
    backend_lint::cli::main_with_args(backend_lint::cli::cargo_args(std::env::args_os().collect()))
}
