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

/// The receiver's type is not written: it may be a render graph, whose
/// `add_node` appends, so the scene's rejection does not decide.
pub fn passes(graphs: &mut [RenderGraph]) {
    for graph in graphs.iter_mut() {
        graph.add_node("blur");
        graph.add_node("blur");
    }
}
