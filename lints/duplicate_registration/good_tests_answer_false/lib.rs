//! A plugin host whose `register_plugin` answers whether the plugin was new:
//! a second registration of one name is no error, it answers `Ok(false)`.
//! The test checks just that.

pub mod host;

#[cfg(test)]
mod tests {
    use crate::host::PluginHost;

    #[test]
    fn a_second_registration_is_not_new() {
        let mut host = PluginHost::default();
        assert_eq!(host.register_plugin("gzip", 1), Ok(true));
        assert_eq!(host.register_plugin("gzip", 2), Ok(false));
    }

    #[test]
    fn a_second_registration_keeps_the_first() {
        let mut host = PluginHost::default();
        assert!(host.register_plugin("zstd", 1).unwrap());
        assert!(!host.register_plugin("zstd", 2).unwrap());
    }

    #[test]
    fn registering_twice_is_no_error() -> Result<(), crate::host::HostError> {
        let mut host = PluginHost::default();
        let first = host.register_plugin("brotli", 1)?;
        let second = host.register_plugin("brotli", 2)?;
        assert!(first && !second);
        Ok(())
    }
}
