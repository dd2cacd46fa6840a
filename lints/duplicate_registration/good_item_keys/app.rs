//! A stand-in for an app builder keyed by types and enum values (bevy's
//! `App::add_plugins` panics on a unique plugin added twice; a `TypeId`
//! map of classes rejects a type registered twice).

use std::any::{TypeId, type_name};
use std::collections::HashMap;

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    Update,
    Render,
}

pub struct App {
    plugins: HashMap<TypeId, &'static str>,
    stages: HashMap<Stage, String>,
    ids: HashMap<u32, String>,
    priorities: HashMap<TypeId, Stage>,
}

impl App {
    pub fn add_plugin<P: 'static>(&mut self) -> &mut Self {
        let id = TypeId::of::<P>();
        if self.plugins.contains_key(&id) {
            panic!("plugin `{}` added twice", type_name::<P>());
        }
        self.plugins.insert(id, type_name::<P>());
        self
    }

    pub fn add_stage(&mut self, stage: Stage, label: &str) -> &mut Self {
        if self.stages.contains_key(&stage) {
            panic!("stage `{label}` added twice");
        }
        self.stages.insert(stage, label.to_string());
        self
    }

    pub fn add_device(&mut self, id: u32, name: &str) -> Result<(), String> {
        if self.ids.contains_key(&id) {
            return Err(format!("device {id} added twice"));
        }
        self.ids.insert(id, name.to_string());
        Ok(())
    }

    /// Sets the stage of type `T`, replacing any before.
    pub fn register_priority<T: 'static>(&mut self, stage: Stage) {
        self.priorities.insert(TypeId::of::<T>(), stage);
    }
}
