use crate::dispatch::{DispatchError, Dispatcher};

fn matmul(x: &[f32]) -> Vec<f32> {
    x.to_vec()
}

fn conv(x: &[f32]) -> Vec<f32> {
    x.iter().map(|v| v * 2.0).collect()
}

pub fn setup(dispatcher: &mut Dispatcher) -> Result<(), DispatchError> {
    dispatcher.bind("matmul", "cuda", matmul)?;
    dispatcher.bind("conv", "cuda", conv)?;
    dispatcher.bind("matmul", "cpu", matmul)?;
    dispatcher.bind("matmul", "cuda", matmul)?; //~ duplicate_registration
    dispatcher.record("kernels", 3);
    dispatcher.record("kernels", 4);
    Ok(())
}
