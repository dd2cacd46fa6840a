mod logging;
mod server;

fn main() {
    let verbose = std::env::args().any(|a| a == "-v");
    logging::init_logging(verbose);
    logging::init_plugin_logging();
    if std::env::var_os("APP_DEBUG").is_some() {
        log::set_max_level(log::LevelFilter::Debug); // TRAP log-t2: `set_max_level` replaces the level by design (a plain atomic store)
    }
    log::info!("starting");
    server::start(8080);
}
