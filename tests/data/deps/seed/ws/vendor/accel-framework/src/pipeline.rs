//! A builder of compilation pipelines: each stage name once, each pass type
//! once (a second one panics when the pipeline is built).

use std::any::TypeId;
use std::collections::HashMap;

pub type Stage = fn(&mut Vec<u8>);

#[derive(Default)]
pub struct Pipeline {
    stages: HashMap<String, Stage>,
    passes: HashMap<TypeId, &'static str>,
}

impl Pipeline {
    pub fn new() -> Self {
        Pipeline::default()
    }

    /// Adds the stage `name`; hands the pipeline back.
    pub fn stage(mut self, name: &str, stage: Stage) -> Self {
        if self.stages.contains_key(name) {
            panic!("stage `{name}` added twice");
        }
        self.stages.insert(name.to_string(), stage);
        self
    }

    /// Adds the pass `P`, once.
    pub fn add_pass<P: 'static>(&mut self) -> &mut Self {
        let id = TypeId::of::<P>();
        if self.passes.contains_key(&id) {
            panic!("pass `{}` added twice", std::any::type_name::<P>());
        }
        self.passes.insert(id, std::any::type_name::<P>());
        self
    }
}
