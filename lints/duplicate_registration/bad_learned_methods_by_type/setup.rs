use crate::scene::{NameTaken, Scene};

pub fn level(scene: &mut Scene) -> Result<(), NameTaken> {
    scene.add_node("player")?;
    scene.add_node("camera")?;
    scene.add_node("player")?; //~ duplicate_registration
    Ok(())
}

pub fn levels(scenes: &mut [Scene]) -> Result<(), NameTaken> {
    for scene in scenes.iter_mut() {
        scene.add_node("sun")?;
        scene.add_node("sun")?; //~ duplicate_registration
    }
    Ok(())
}
