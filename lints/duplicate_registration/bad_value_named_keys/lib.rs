//! A compute graph refuses a second node of one name: `add_node` checks the
//! node's own `name` field, so a call's key is the name the node was built
//! with, by a constructor given one name (`Node::new("relu1", ..)`) or a
//! struct literal (`Node { name: FC.to_string(), .. }`, held by a local).
//! A wrapper handing its name on (`add_dense`) adds to the same table.
//! Nodes of other names, a constructor given two names (which one is the
//! node's is not known), a wrapper naming its node after the name it is
//! given (`add_norm`), and another graph are not reported.

pub mod graph;
pub mod model;
