pub struct Pass {
    pub label: String,
}

#[derive(Default)]
pub struct RenderGraph {
    passes: Vec<Pass>,
}

impl RenderGraph {
    pub fn add_node(&mut self, label: &str) -> usize {
        self.passes.push(Pass {
            label: label.to_string(),
        });
        self.passes.len() - 1
    }
}
