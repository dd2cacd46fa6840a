//! An integration test: a program of its own, all test code.

fn open_client() -> Client {
    let client = Client::open().unwrap();
    if client.platform_name().unwrap() == "gpu" {
        eprintln!("running on a GPU");
    }
    client
}

#[test]
fn opens() {
    let client = open_client();
    assert_ne!(client.platform(), "tpu");
}
