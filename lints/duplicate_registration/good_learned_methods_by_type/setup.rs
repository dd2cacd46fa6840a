use crate::render_graph::RenderGraph;
use crate::scene::{NameTaken, Scene};

/// Two blur passes, one after the other: a wider blur.
pub fn post_process(graph: &mut RenderGraph) {
    graph.add_node("blur");
    graph.add_node("blur");
    graph.add_node("tonemap");
}

pub fn bloom() -> RenderGraph {
    let mut graph = RenderGraph::default();
    graph.add_node("blur");
    graph.add_node("blur");
    graph
}

pub fn level(scene: &mut Scene) -> Result<(), NameTaken> {
    scene.add_node("player")?;
    scene.add_node("camera")?;
    Ok(())
}
