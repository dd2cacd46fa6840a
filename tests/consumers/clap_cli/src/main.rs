mod cli;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let cmd = if args.iter().any(|a| a == "--plugins") {
        cli::app_with_plugins()
    } else {
        cli::app(true)
    };
    let argv: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| *a != "--plugins")
        .collect();
    let matches = cmd.get_matches_from(argv);
    println!("{:?}", matches.subcommand_name());
}
