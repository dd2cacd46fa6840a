//! `duplicate_registration`: near misses of `bad_const_chains/`: constants
//! defined through other constants whose values differ, chains that loop,
//! and a constant that names an enum value, not a string. Analysed as one
//! crate.

mod names;

use pjrt::register_backend;

// `names::DEFAULT_PLATFORM` is `"cuda"`, not `"rocm"`.
pub fn init_default() {
    register_backend(names::DEFAULT_PLATFORM, make_cuda_client);
    register_backend("rocm", make_rocm_client);
}

// `LOOP_A` and `LOOP_B` name each other: no value, so no key to compare.
pub fn init_loop() {
    register_backend(names::LOOP_A, make_cuda_client);
    register_backend("tpu", make_tpu_client);
}

// `KIND` is an enum value: not the string `"cpu"`.
pub fn init_kind() {
    register_backend(names::KIND_NAME, make_cpu_client);
    register_backend("cpu", make_cpu_client_v2);
}
