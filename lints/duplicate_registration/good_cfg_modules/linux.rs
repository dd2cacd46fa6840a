//! Linux host plugins: the whole file is under `cfg(target_os = "linux")`.

pub fn init(plugins: &mut PluginRegistry) {
    plugins.register_plugin("host_callback", load_pjrt_plugin("libhost_callback.so"));
}
