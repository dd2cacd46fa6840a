//! A game engine with two `add_node`s: the scene's refuses a second node of
//! one name, the render graph's appends a pass (a graph may run `blur`
//! twice). What is learned of the scene's `add_node` is the scene's: a call
//! on a render graph is the graph's own method.

pub mod scene;
pub mod render_graph;
pub mod setup;
