#!/usr/bin/env bash
# Run every consumer crate's scenarios and show that each BUG fails at run
# time, where it is marked (the panic's backtrace, its location, or the error
# it returns); traps placed before a bug on its path ran without failing.
# Not part of `cargo test`: it builds the crates (ring compiles C), which the
# CI does not need.
#   tests/consumers/prove.sh            # every crate
#   tests/consumers/prove.sh rayon_app  # one
# The builds go to $CARGO_TARGET_DIR (default /tmp/consumers-target).
set -uo pipefail
cd "$(dirname "$0")"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/tmp/consumers-target}" RUST_BACKTRACE=0 NO_COLOR=1

# crate | how to run it | the bug it must show | what its output must say
scenarios='
log_app|RUST_BACKTRACE=1 run|log-1|at ./src/server.rs:6:
once_cell_app|run|once_cell-1|panicked at src/main.rs:34:
once_cell_app|run -- --reload|once_cell-2|configuration loaded twice
matchit_router|run|matchit-1|conflict with previously registered route: /
matchit_router|ADMIN=1 run|matchit-2|conflict with previously registered route: /users/{id}
eyre_app|run|eyre-1|a hook has already been installed
eyre_app|run -- --early|eyre-2|a hook has already been installed
metrics_app|RUST_BACKTRACE=1 run|metrics-1|at ./src/main.rs:10:
prometheus_app|run|prometheus-1|Error: AlreadyReg
prometheus_app|run -- --restart|prometheus-2|Error: AlreadyReg
env_logger_app|RUST_BACKTRACE=1 run|env_logger-1|at ./src/lib.rs:31:
env_logger_app|test --lib|env_logger-2|env_logger::init should not be called after logger initialized
env_logger_app|test --test quiet|env_logger-t2 (passes)|test result: ok. 2 passed
tracing_app|RUST_BACKTRACE=1 run|tracing-1|at ./src/worker.rs:6:
tracing_app|run -- --direct|tracing-2|panicked at src/main.rs:12:
rayon_app|RUST_BACKTRACE=1 run|rayon-1|at ./src/index.rs:9:
rayon_app|RUST_BACKTRACE=1 run -- --late|rayon-2|at ./src/main.rs:10:
clap_cli|run -- build|clap traps (passes)|Some("build")
clap_cli|run -- deploy --target prod|clap-1|Argument names must be unique, but '"'"'target'"'"'
clap_cli|run -- --plugins build|clap-2|command name `build` is duplicated
miette_app|run|miette-1|a hook has already been installed
wasmi_host|run|wasmi-2|field: "abort"
wasmi_host|run -- --debug|wasmi-1|field: "log"
rustls_app|RUST_BACKTRACE=1 run|rustls-1|at ./src/main.rs:17:
axum_app|run|axum-1|panicked at src/main.rs:20:
axum_app|run -- --status|axum-2|panicked at src/main.rs:25:
'
fail=0
while IFS='|' read -r crate how bug expect; do
  [ -n "$crate" ] || continue
  [ $# -eq 0 ] || [[ " $* " == *" $crate "* ]] || continue
  envs=""; cmd="$how"
  if [[ "$how" == *=*" "* ]]; then envs="${how%% *}"; cmd="${how#* }"; fi
  out=$(cd "$crate" && env $envs cargo -q $cmd 2>&1)
  if grep -qF -- "$expect" <<<"$out"; then
    echo "ok    $bug ($crate: ${how})"
  else
    echo "FAIL  $bug ($crate: ${how}): no \"$expect\" in:"; echo "$out" | tail -n 8; fail=1
  fi
done <<<"$scenarios"
exit $fail
