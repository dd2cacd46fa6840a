use std::collections::HashMap;

#[derive(Debug, Clone, Copy)]
pub enum Op {
    Input,
    Relu,
    Dense,
}

pub struct Node {
    pub name: String,
    pub op: Op,
    pub doc: String,
}

impl Node {
    pub fn new(name: &str, op: Op) -> Self {
        Node { name: name.to_string(), op, doc: String::new() }
    }

    pub fn input(name: &str) -> Self {
        Self::new(name, Op::Input)
    }

    pub fn documented(name: &str, doc: &str, op: Op) -> Self {
        Node { name: name.to_string(), op, doc: doc.to_string() }
    }
}

#[derive(Debug)]
pub struct DuplicateNode(pub String);

#[derive(Default)]
pub struct Graph {
    nodes: HashMap<String, Node>,
}

impl Graph {
    pub fn add_node(&mut self, node: Node) -> Result<(), DuplicateNode> {
        if self.nodes.contains_key(&node.name) {
            return Err(DuplicateNode(node.name));
        }
        self.nodes.insert(node.name.clone(), node);
        Ok(())
    }
}
