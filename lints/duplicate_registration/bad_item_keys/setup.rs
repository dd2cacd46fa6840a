//! Keys that are types, enum values and constants of no string type.

use crate::app::{App, Stage};
use crate::plugins::{LogPlugin, RenderPlugin, ids};

pub fn build(app: &mut App) {
    app.add_plugin::<LogPlugin>();
    app.add_plugin::<RenderPlugin>();
    // The same type, spelled by its path.
    app.add_plugin::<crate::plugins::LogPlugin>(); //~ duplicate_registration
}

pub fn stages(app: &mut App) {
    app.add_stage(Stage::Update, "update");
    app.add_stage(Stage::Render, "render");
    app.add_stage(Stage::Update, "late update"); //~ duplicate_registration
}

pub fn devices(app: &mut App) -> Result<(), String> {
    app.add_device(ids::GPU, "gpu")?;
    app.add_device(ids::CPU, "cpu")?;
    app.add_device(ids::GPU, "gpu again")?; //~ duplicate_registration
    Ok(())
}
