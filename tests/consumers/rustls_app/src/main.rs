// `ring::default_provider` is deprecated (no post-quantum key exchange) in favour of
// aws-lc-rs; ring keeps this crate's dependency tree small.
#![allow(deprecated)]

mod tls;

mod client {
    pub fn connect() {
        crate::tls::install_crypto();
        let _config = crate::tls::client_config();
        println!("client ready");
    }
}

mod server {
    pub fn listen() {
        crate::tls::install_crypto(); // BUG rustls-1: `client::connect` installed the provider: `install_default` returns Err and `expect` panics (rustls-0.23.48/src/crypto/mod.rs:741, a `OnceLock::set`)
        println!("server ready");
    }
}

fn main() {
    let _a = tls::client_config();
    let _b = tls::client_config(); // TRAP rustls-t2: `builder_with_provider` takes its own provider: nothing process-wide is installed
    client::connect();
    tls::ensure_crypto();
    server::listen();
}
