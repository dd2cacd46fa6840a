use std::collections::HashMap;

pub type Kernel = fn(&[f32]) -> f32;

#[derive(Default)]
pub struct KernelTable {
    overloads: HashMap<String, Vec<(Kernel, &'static str)>>,
}

pub struct KernelBuilder<'t> {
    table: &'t mut KernelTable,
    name: String,
    dtype: &'static str,
    kernel: Option<Kernel>,
}

impl KernelTable {
    pub fn builder(&mut self, name: &str) -> KernelBuilder<'_> {
        KernelBuilder {
            table: self,
            name: name.to_string(),
            dtype: "f32",
            kernel: None,
        }
    }

    /// One more overload of `name` for `dtype`.
    pub fn register_unary(&mut self, name: &str, dtype: &'static str, kernel: Kernel) {
        self.builder(name).dtype(dtype).kernel(kernel).register();
    }

    fn add_overload(&mut self, name: String, kernel: Kernel, dtype: &'static str) {
        self.overloads.entry(name).or_default().push((kernel, dtype));
    }
}

impl KernelBuilder<'_> {
    pub fn dtype(mut self, dtype: &'static str) -> Self {
        self.dtype = dtype;
        self
    }

    pub fn kernel(mut self, kernel: Kernel) -> Self {
        self.kernel = Some(kernel);
        self
    }

    pub fn register(self) {
        if let Some(kernel) = self.kernel {
            self.table.add_overload(self.name, kernel, self.dtype);
        }
    }
}
