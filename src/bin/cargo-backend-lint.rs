//! `cargo backend-lint`: cargo runs this binary with `backend-lint` as its
//! first argument. A cargo from the analysed tree (`$CARGO`, which rustup ran
//! because the checkout's toolchain file named it) is refused in `check`; a
//! checkout's `[alias] backend-lint` never reaches this binary at all, which
//! is why CI runs `backend-lint` directly (README, "Safe on untrusted code").

use std::process::ExitCode;

fn main() -> ExitCode {
    backend_lint::cli::main_with_args(backend_lint::cli::cargo_args(std::env::args_os().collect()))
}
