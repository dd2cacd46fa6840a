//! A PJRT client and what it reports.

pub struct Client {
    platform: String,
}

impl Client {
    pub fn platform_name(&self) -> String {
        self.platform.clone()
    }

    /// A method returning the raw platform, called on a typed receiver.
    pub fn backend_platform(&self) -> String {
        self.platform_name().to_lowercase()
    }
}

/// The platform a client runs on, as it reports it.
pub fn platform_of(c: &Client) -> String {
    c.platform_name()
}

/// A wrapper of the wrapper.
pub fn client_platform(c: &Client) -> String {
    let p = platform_of(c);
    p
}
