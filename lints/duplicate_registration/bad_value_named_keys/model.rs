use crate::graph::{DuplicateNode, Graph, Node, Op};

const FC: &str = "fc";

pub fn build(graph: &mut Graph) -> Result<(), DuplicateNode> {
    graph.add_node(Node::input("x"))?;
    graph.add_node(Node::new("relu1", Op::Relu))?;
    graph.add_node(Node::new("relu2", Op::Relu))?;
    graph.add_node(Node::new("relu1", Op::Relu))?; //~ duplicate_registration
    let fc = Node { name: FC.to_string(), op: Op::Dense, doc: String::new() };
    graph.add_node(fc)?;
    graph.add_node(Node::input(FC))?; //~ duplicate_registration
    // Two names given: which one names the node is the constructor's.
    graph.add_node(Node::documented("out", "the logits", Op::Dense))?;
    graph.add_node(Node::documented("head", "the logits", Op::Dense))?;
    Ok(())
}

fn add_dense(graph: &mut Graph, name: &str) -> Result<(), DuplicateNode> {
    graph.add_node(Node::new(name, Op::Dense))
}

/// The node it adds is named after `name`, not `name` itself.
fn add_norm(graph: &mut Graph, name: &str) -> Result<(), DuplicateNode> {
    graph.add_node(Node::new(&format!("{name}_norm"), Op::Relu))
}

pub fn head(graph: &mut Graph) -> Result<(), DuplicateNode> {
    graph.add_node(Node::new("head", Op::Dense))?;
    add_norm(graph, "head")?;
    add_dense(graph, "head")?; //~ duplicate_registration
    Ok(())
}

pub fn probe() -> Result<(), DuplicateNode> {
    let mut scratch = Graph::default();
    scratch.add_node(Node::new("relu1", Op::Relu))?;
    Ok(())
}
