//! The command line, with clap's builder API as its docs write it.

use clap::{Arg, ArgAction, Command};

fn common_args(cmd: Command) -> Command {
    cmd.arg(
        Arg::new("verbose")
            .short('v')
            .long("verbose")
            .action(ArgAction::Count),
    )
    .arg(Arg::new("config").long("config").value_name("FILE"))
}

pub fn deploy() -> Command {
    Command::new("deploy")
        .about("deploy a build")
        .arg(Arg::new("target").long("target").required(true))
        .arg(
            Arg::new("dry-run")
                .long("dry-run")
                .action(ArgAction::SetTrue),
        )
        // Added later for `-t`, forgetting the id is taken.
        .arg(Arg::new("target").short('t')) // BUG clap-1: the id `target` is already an argument: clap's debug assertions panic "Argument names must be unique" when the command is built (clap_builder-4.6.10/src/builder/debug_asserts.rs:99)
}

pub fn build() -> Command {
    // Both subcommands take `--config`: ids are per command.
    common_args(Command::new("build").about("build the project")).arg(
        Arg::new("release")
            .long("release")
            .action(ArgAction::SetTrue),
    )
}

pub fn app(with_deploy: bool) -> Command {
    let app = Command::new("tool")
        .version("1.0")
        .arg(Arg::new("color").long("color").value_name("WHEN"))
        .subcommand(build());
    let app = if with_deploy {
        app.subcommand(deploy())
    } else {
        app
    };
    // Tweak an argument defined above: `mut_arg` changes it in place.
    app.mut_arg("color", |a| a.default_value("auto")) // TRAP clap-t1: `mut_arg` modifies the argument with that id, by design
}

pub fn app_with_plugins() -> Command {
    app(false)
        .subcommand(Command::new("plugin").arg(Arg::new("config").long("config"))) // TRAP clap-t2: `config` again, in another subcommand: ids are per command
        .subcommand(Command::new("build").about("the plugin's build")) // BUG clap-2: `build` is already a subcommand of `tool`: clap's debug assertions panic "command name `build` is duplicated" (clap_builder-4.6.10/src/builder/debug_asserts.rs:353)
}
