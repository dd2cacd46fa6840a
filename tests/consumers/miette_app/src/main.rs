use miette::Result;

fn main() -> Result<()> {
    // A panic hook that prints one line: std's `set_hook` replaces the previous one.
    std::panic::set_hook(Box::new(|info| eprintln!("internal error: {info}")));
    std::panic::set_hook(Box::new(|info| eprintln!("internal error (v2): {info}"))); // TRAP miette-t2: `std::panic::set_hook` replaces the hook by design
    miette_app::install_reports()?;
    println!("{}", miette_app::embed("a\nb")?);
    println!("{}", miette_app::run("a\nb")?);
    Ok(())
}
