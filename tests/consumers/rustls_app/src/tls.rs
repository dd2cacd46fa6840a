//! TLS setup: the process-wide crypto provider, as rustls' docs install it.

use std::sync::Arc;

use rustls::crypto::{ring, CryptoProvider};

/// `install_default` succeeds once per process and returns `Err` after.
pub fn install_crypto() {
    ring::default_provider()
        .install_default()
        .expect("failed to install the default crypto provider");
}

/// Install ring unless something else already did: the check comes first.
pub fn ensure_crypto() {
    if CryptoProvider::get_default().is_none() {
        let _ = ring::default_provider().install_default(); // TRAP rustls-t1: guarded by `get_default().is_none()`, and the `Err` discarded
    }
}

/// A config with an explicit provider: nothing process-wide.
pub fn client_config() -> rustls::ClientConfig {
    let provider = Arc::new(ring::default_provider());
    rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("protocol versions")
        .with_root_certificates(rustls::RootCertStore::empty())
        .with_no_client_auth()
}
