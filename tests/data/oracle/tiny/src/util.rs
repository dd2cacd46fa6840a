pub struct Registry {
    names: Vec<&'static str>,
}

impl Registry {
    pub fn new() -> Registry {
        Registry { names: Vec::new() }
    }

    pub fn add(&mut self, name: &'static str) {
        self.names.push(name);
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }
}

impl std::ops::Add<usize> for Registry {
    type Output = usize;

    fn add(self, n: usize) -> usize {
        self.names.len() + n
    }
}

pub fn helper(x: usize) -> usize {
    x + 1
}

pub trait Backend {
    fn name(&self) -> &'static str;
}

impl Backend for Registry {
    fn name(&self) -> &'static str {
        "registry"
    }
}

pub fn describe<B: Backend>(b: &B) -> &'static str {
    b.name()
}
