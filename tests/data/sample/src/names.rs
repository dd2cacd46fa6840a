pub const CUDA: &str = "cuda";

pub fn init_again(registry: &mut Registry) {
    registry.register_backend(CUDA, make_cuda);
}
