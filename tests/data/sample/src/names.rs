pub const CUDA: &str = "cuda";
use crate::REGISTRY;
pub fn init_again() {
    REGISTRY.register_backend(CUDA, make_cuda);
}
