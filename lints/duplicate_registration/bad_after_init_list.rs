//! A provider list sealed once its service starts: a second provider of a
//! name is appended, not refused, but every registration fails after
//! `start()`. What the list does with a key does not matter here.

#[derive(Debug)]
pub struct ServiceRunning;

#[derive(Default)]
pub struct ProviderList {
    providers: Vec<(String, u32)>,
    started: bool,
}

impl ProviderList {
    pub fn register(&mut self, runtime: &'static str, name: String, slot: u32) -> Result<(), ServiceRunning> {
        if self.started {
            return Err(ServiceRunning);
        }
        let _ = runtime;
        self.providers.push((name, slot));
        Ok(())
    }

    pub fn start(&mut self) -> &Self {
        self.started = true;
        self
    }
}

pub fn late(list: &mut ProviderList) -> Result<(), ServiceRunning> {
    list.start();
    list.register("cuda", "fused".to_string(), 1)?; //~ duplicate_registration
    Ok(())
}
