//! Placeholders for builds without CUDA: the whole file is under
//! `cfg(not(feature = "cuda"))`, exclusive with `cuda.rs`.

pub fn init_plugin(plugins: &mut PluginRegistry) {
    plugins.register_plugin("cuda", NoopPlugin::named("cuda"));
}
