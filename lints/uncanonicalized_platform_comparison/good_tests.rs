//! `uncanonicalized_platform_comparison` must stay silent in test code: a
//! test that checks what a client reports compares the raw string on
//! purpose (`platforms.check-tests = true` reports these too).

pub fn default_client() -> Client {
    Client::cpu()
}

#[test]
fn cpu_client_reports_its_platform() {
    let client = default_client();
    assert_eq!(client.platform_name().unwrap(), "cpu");
    assert!(client.platform() != "gpu");
}

#[tokio::test]
async fn plugin_reports_cuda() {
    let client = load_plugin("libpjrt_cuda.so").await;
    let platform = client.platform_name().unwrap();
    assert_eq!(platform, "cuda");
}

#[cfg(test)]
mod tests {
    use super::*;

    // A helper of the tests, not a test itself: still test code.
    fn is_cuda(dev: &Device) -> bool {
        dev.platform() == "cuda"
    }

    #[test]
    fn devices_of_the_cpu_client() {
        let client = default_client();
        assert!(client.devices().iter().all(|d| d.platform() == "cpu"));
        assert!(!client.devices().iter().any(is_cuda));
    }
}

#[cfg(all(test, feature = "cuda"))]
fn cuda_devices(client: &Client) -> Vec<Device> {
    client.devices().into_iter().filter(|d| d.platform() == "cuda").collect()
}
