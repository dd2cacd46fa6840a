//! Near misses of keys that are types, enum values and constants.

use crate::app::{App, Stage};
use crate::plugins::{core, ids, render};

// Two types of one name in two modules.
pub fn build(app: &mut App) {
    app.add_plugin::<core::Plugin>();
    app.add_plugin::<render::Plugin>();
}

// Type parameters are not types: each caller picks its own.
pub fn add_one<P: 'static>(app: &mut App) {
    app.add_plugin::<P>();
}

pub fn add_other<P: 'static>(app: &mut App) {
    app.add_plugin::<P>();
}

// Enum values and constants that differ.
pub fn stages(app: &mut App) -> Result<(), String> {
    app.add_stage(Stage::Update, "update");
    app.add_stage(Stage::Render, "render");
    app.add_device(ids::GPU, "gpu")?;
    app.add_device(ids::CPU, "cpu")?;
    Ok(())
}

// Two apps.
pub fn two_apps(main: &mut App, sub: &mut App) {
    main.add_stage(Stage::Update, "update");
    sub.add_stage(Stage::Update, "update");
}

pub trait Named {
    const STAGE: Stage;

    fn install(app: &mut App);
}

pub struct Early;
pub struct Late;

// `Self::STAGE` is another constant in each `impl`.
impl Named for Early {
    const STAGE: Stage = Stage::Update;

    fn install(app: &mut App) {
        app.add_stage(Self::STAGE, "early");
    }
}

impl Named for Late {
    const STAGE: Stage = Stage::Render;

    fn install(app: &mut App) {
        app.add_stage(Self::STAGE, "late");
    }
}

// A `register*` name whose body is no rejection: a type argument is no key.
pub fn reflect(types: &mut crate::plugins::TypeRegistry) {
    types.register_type::<core::Plugin>();
    types.register_type::<core::Plugin>();
}

// A configured name (`register*`) is keyed by a name: an enum value given to
// it is some other argument (bevy's `register_label_defining_type::<Window>(
// LabelDefinitionPriority::LIBRARY)`, called once a type).
pub fn priorities(app: &mut App) {
    app.register_priority::<core::Plugin>(Stage::Update);
    app.register_priority::<render::Plugin>(Stage::Update);
}
