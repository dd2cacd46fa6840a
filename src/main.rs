use std::process::ExitCode;

fn main() -> ExitCode {
    backend_lint::cli::main_with_args(std::env::args_os().collect())
}
