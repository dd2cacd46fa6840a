//! The CUDA backend.

use crate::names::CUDA;
use crate::names::CUDA_PLUGIN;

// A `const` imported by name, then the literal it stands for.
pub fn init() {
    xla_bridge::register_backend_factory(CUDA, make_cuda_client);
    xla_bridge::register_backend_factory("cuda", make_cuda_client_async); //~ duplicate_registration
}

// A path through `super::super::`, that is the crate root.
pub fn init_custom_calls(targets: &mut CustomCallTargets) {
    targets.register_custom_call_target("cu_sort", cu_sort as *const ());
    targets.register_custom_call_target(super::super::names::CU_SORT, cu_sort_v2 as *const ()); //~ duplicate_registration
}

// The first half of a case across files: `backends/rocm.rs` registers the
// same plugin again (this file comes first both by path and by `mod` order).
pub fn load_plugin() {
    xla_bridge::register_plugin(CUDA_PLUGIN, load_pjrt_plugin("libpjrt_cuda.so"));
}
