//! Windows host plugins: the whole file is under `cfg(target_os = "windows")`.

pub fn init(plugins: &mut PluginRegistry) {
    plugins.register_plugin("host_callback", load_pjrt_plugin("host_callback.dll"));
}
