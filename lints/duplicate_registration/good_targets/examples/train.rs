fn main() {
    xla::register_backend_factory("cuda", make_cuda_client);
    train();
}
