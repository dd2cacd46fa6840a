//! Backend factories, registered once by platform name.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::{names, Error};

/// A client for one platform, as a PJRT plugin creates it.
pub struct Client {
    pub platform: &'static str,
}

type Factory = fn() -> Client;

static FACTORIES: Mutex<Option<HashMap<String, Factory>>> = Mutex::new(None);

/// Registers the factory for `name`. Like JAX, it refuses a second one.
pub fn register_backend_factory(name: &str, factory: Factory) -> Result<(), Error> {
    let mut guard = FACTORIES.lock().unwrap();
    let factories = guard.get_or_insert_with(HashMap::new);
    if factories.contains_key(name) {
        return Err(Error(format!("backend {name} is already registered")));
    }
    factories.insert(name.to_string(), factory);
    Ok(())
}

/// A client made by the factory registered for `name`.
pub fn create_client(name: &str) -> Result<Client, Error> {
    let guard = FACTORIES.lock().unwrap();
    let factory = guard.as_ref().and_then(|f| f.get(name));
    factory.map(|make| make()).ok_or_else(|| Error(format!("no backend {name}")))
}

pub fn cpu_client() -> Client {
    Client { platform: names::CPU }
}

pub fn cuda_client() -> Client {
    Client { platform: names::CUDA }
}

/// The backends built into the runtime, registered at start-up.
pub fn init_backends() -> Result<(), Error> {
    register_backend_factory(names::CPU, cpu_client)?;
    // BUG(duplicate_registration): `devices::load_cuda_plugin` registers
    // "cuda" too, so whichever runs second fails with "already registered".
    register_backend_factory("cuda", cuda_client)?;
    Ok(())
}
