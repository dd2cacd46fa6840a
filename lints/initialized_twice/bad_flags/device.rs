use std::sync::Mutex;

macro_rules! bail {
    ($($t:tt)*) => {
        return Err(Error(format!($($t)*)))
    };
}

#[derive(Debug)]
pub struct Error(pub String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub struct Context {
    pub name: String,
}

pub static DEVICE_CONTEXT: Mutex<Option<Context>> = Mutex::new(None);
static KERNELS: Mutex<Option<Vec<String>>> = Mutex::new(None);

/// Sets the process's device context; a second one is refused.
pub fn set_context(context: Context) -> Result<(), Error> {
    let mut current = DEVICE_CONTEXT.lock().unwrap();
    if current.is_none() {
        *current = Some(context);
        Ok(())
    } else {
        bail!("Context is already set")
    }
}

pub fn install_default() -> Result<(), Error> {
    set_context(Context {
        name: "cpu".to_string(),
    })
}

/// Compiles the kernels on first use; later calls find them.
pub fn warm_up() {
    let mut kernels = KERNELS.lock().unwrap();
    if kernels.is_none() {
        *kernels = Some(vec!["matmul".to_string()]);
    }
}
